// The server: an MCP server by hand with three tools: add, echo, and createFile inside one sandbox folder.
// stdout carries responses and nothing else; a line over the size limit is answered with an error and skipped.
import { parseArgs } from "node:util";
import { LineDecoder, LineTooLong, MAX_LINE_BYTES, type Line } from "./framing.ts";
import { failure, handleLine, InvalidRequest, type Method, type Methods } from "./jsonrpc.ts";
import { Session } from "./lifecycle.ts";
import { openSandbox, SandboxError, writeInside } from "./sandbox.ts";
import { handleToolsCall, handleToolsList, ToolError, type Tool } from "./tools.ts";

//#region options
const USAGE = "usage: server.ts [--max-line-bytes N] <sandbox-folder>";
/** Reads --max-line-bytes from the command line; throws on a value that is not a positive whole number. */
function parseOptions(): { maxLineBytes: number; folder: string } {
  const options = { "max-line-bytes": { type: "string" } } as const;
  const { values, positionals } = parseArgs({ options, allowPositionals: true });
  const maxLineBytes = Number(values["max-line-bytes"] ?? MAX_LINE_BYTES);
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
    throw new Error("--max-line-bytes takes a positive whole number");
  if (positionals.length !== 1) throw new Error("expected one sandbox folder");
  return { maxLineBytes, folder: positionals[0]! };
}

/** The options, or an error that adds the usage line to what was wrong. */
function readOptions(): { maxLineBytes: number; folder: string } {
  try {
    return parseOptions();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
}
//#endregion

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
  inputSchema: {
    type: "object",
    properties: { message: { type: "string" } },
    required: ["message"],
    additionalProperties: false,
  },
  run: ({ message }) => message as string,
};

const createFile: Tool = {
  name: "createFile",
  description: "Creates or replaces a UTF-8 text file inside the server's sandbox folder.",
  inputSchema: {
    type: "object",
    properties: {
      path: { type: "string", description: "Relative to the sandbox folder" },
      content: { type: "string" },
    },
    required: ["path", "content"],
    additionalProperties: false,
  },
  async run({ path, content }) {
    try {
      return `Wrote ${await writeInside(sandbox, path as string, content as string)} bytes to ${path}`;
    } catch (error) {
      // The sandbox's refusal is for the model to read; any other failure is logged and hidden by handleToolsCall.
      if (error instanceof SandboxError)
        throw new ToolError(`createFile refused ${JSON.stringify(path)}: ${error.message}`);
      throw error;
    }
  },
};
//#endregion

//#region methods
const tools = [add, echo, createFile];
const session = new Session(
  { name: "learn-mcp-by-hand", version: "0.6.0" },
  { tools: {} },
  "Tools: add and echo; createFile writes inside one sandbox folder.",
);
// initialize and ping are always answered; everything else waits for the handshake.
const methods: Methods = new Map<string, Method>([
  ["initialize", (params) => session.handleInitialize(params)],
  ["notifications/initialized", () => session.handleInitialized()],
  ["ping", () => ({})],
  ["tools/list", session.afterInitialize(() => handleToolsList(tools))],
  ["tools/call", session.afterInitialize((params) => handleToolsCall(tools, params))],
]);
//#endregion

//#region serve
/** Writes one answer as a line on stdout. */
const reply = (line: string) => process.stdout.write(line + "\n");

/** Answers one line of input, or a line over the limit with -32600. */
// Each line is answered when its method finishes, so a slow request never holds up a quick one.
function serve(line: Line): void {
  if (line instanceof LineTooLong) {
    return void reply(
      JSON.stringify(failure(null, InvalidRequest, `Invalid Request: message over ${line.limit} bytes`)),
    );
  }
  // A blank line carries no message: skip it rather than answer it with a parse error.
  if (line.trim() === "") return;
  void handleLine(line, methods, session.acceptsBatches()).then((answer) => answer !== undefined && reply(answer));
}

function listen(maxLineBytes: number): void {
  const decoder = new LineDecoder(maxLineBytes);
  process.stdin.on("data", (chunk: Buffer) => decoder.push(chunk).forEach(serve));
  process.stdin.on("end", () => {
    const last = decoder.end();
    if (last !== undefined) serve(last);
  });
}
//#endregion

let sandbox = "";
try {
  const options = readOptions();
  sandbox = await openSandbox(options.folder);
  listen(options.maxLineBytes);
  console.error(`[server] serving MCP on stdio; sandbox ${sandbox}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
