// Step 03's server: MCP over stdio by hand, on step 02's JSON-RPC layer, with four tools.
// Run as `server.ts <sandbox-folder>`: settings come as arguments; stdout carries protocol messages only.
import { LineDecoder, writeLine } from "./framing.ts";
import { handleLine, type Method, type Methods } from "./jsonrpc.ts";
import { Session } from "./lifecycle.ts";
import { openSandbox, SandboxError, writeInside } from "./sandbox.ts";
import { handleToolsCall, handleToolsList, ToolError, type Tool } from "./tools.ts";

if (process.argv[2] === undefined) {
  console.error("usage: server.ts <sandbox-folder>");
  process.exit(2);
}
const sandbox = await openSandbox(process.argv[2]);

//#region tools
const add: Tool = {
  name: "add",
  description: "Adds two numbers and returns the sum.",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  run: ({ a, b }) => String((a as number) + (b as number)),
};

const echo: Tool = {
  name: "echo",
  description: "Returns the message it was given.",
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  run: ({ message }) => message as string,
};

const createFile: Tool = {
  name: "createFile",
  description: "Creates or replaces a UTF-8 text file inside the server's sandbox folder.",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string", description: "Relative to the sandbox folder" }, content: { type: "string" } },
    required: ["path", "content"],
  },
  async run({ path, content }) {
    try {
      return `Wrote ${await writeInside(sandbox, path as string, content as string)} bytes to ${path}`;
    } catch (error) {
      if (error instanceof SandboxError) throw new ToolError(`createFile refused ${path}: ${error.message}`);
      throw error;
    }
  },
};
//#endregion

//#region get-current-time
const getCurrentTime: Tool = {
  name: "get_current_time",
  description: "Tells the current date and time in an IANA time zone such as Europe/Paris (default: the server's).",
  inputSchema: { type: "object", properties: { timeZone: { type: "string" } } },
  run({ timeZone }) {
    let format: Intl.DateTimeFormat;
    try {
      // Swedish formatting is ISO-like: 2026-07-28 14:05:09.
      format = new Intl.DateTimeFormat("sv-SE", { timeZone: timeZone as string | undefined, dateStyle: "short", timeStyle: "medium" });
    } catch {
      throw new ToolError(`Unknown time zone: ${timeZone} (expected an IANA name such as Europe/Paris)`);
    }
    return `${format.format(new Date())} ${format.resolvedOptions().timeZone}`;
  },
};
//#endregion

//#region methods
const session = new Session(
  { name: "learn-mcp-03", version: "0.1.0" },
  "Tools: add and echo; createFile writes inside one sandbox folder; get_current_time takes an IANA time zone.",
);
const tools = [add, echo, createFile, getCurrentTime];
const methods: Methods = new Map<string, Method>([
  ["initialize", (params) => session.handleInitialize(params)],
  ["notifications/initialized", () => session.handleInitialized()],
  ["ping", () => ({})],
  ["tools/list", session.afterInitialize(() => handleToolsList(tools))],
  ["tools/call", session.afterInitialize((params) => handleToolsCall(tools, params))],
]);
//#endregion

//#region serve
// Each line is answered when its method finishes, so a slow request never holds up a quick one.
function serve(line: string): void {
  // A blank line carries no message: skip it rather than answer it with a parse error.
  if (line.trim() === "") return;
  void handleLine(line, methods, session.acceptsBatches()).then((reply) => {
    if (reply !== undefined) writeLine(process.stdout, reply);
  });
}

const decoder = new LineDecoder();
process.stdin.on("data", (chunk: Buffer) => decoder.push(chunk).forEach(serve));
process.stdin.on("end", () => {
  const last = decoder.end();
  if (last !== undefined) serve(last);
});
//#endregion

console.error(`[server] serving MCP on stdio; sandbox ${sandbox}`);
