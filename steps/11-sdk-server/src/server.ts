// The server: the hand-written server's three tools, now served by the official SDK's McpServer.
// serveStdio takes a factory, not a server: the first message picks the era, and one McpServer serves that connection.
//#region imports
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
//#endregion
import { openSandbox, SandboxError, writeInside } from "./sandbox.ts";

/** A tool result of one text item. */
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
/** A tool result of one text item, marked isError: a failure the model can read. */
const toolError = (value: string): CallToolResult => ({ ...text(value), isError: true });

//#region create-file
async function createFile(sandbox: string, path: string, content: string): Promise<CallToolResult> {
  try {
    return text(`Wrote ${await writeInside(sandbox, path, content)} bytes to ${path}`);
  } catch (error) {
    if (error instanceof SandboxError) return toolError(`createFile refused ${JSON.stringify(path)}: ${error.message}`);
    // The SDK would send a thrown message to the client as it is, and a file system error names the absolute path.
    console.error(`[server] createFile ${JSON.stringify(path)} failed:`, error);
    return toolError("createFile failed with an internal error");
  }
}
//#endregion

//#region tools
/** The MCP server and its tools. */
function createMcpServer(sandbox: string): McpServer {
  const server = new McpServer({ name: "learn-mcp-sdk", version: "0.1.0" });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers and returns the sum.",
      inputSchema: z.strictObject({ a: z.number(), b: z.number() }),
    },
    ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    "echo",
    { description: "Returns the message it was given.", inputSchema: z.strictObject({ message: z.string() }) },
    ({ message }) => text(message),
  );
  server.registerTool(
    "createFile",
    {
      description: "Creates or replaces a UTF-8 text file inside the server's sandbox folder.",
      inputSchema: z.strictObject({ path: z.string().describe("Relative to the sandbox folder"), content: z.string() }),
    },
    ({ path, content }) => createFile(sandbox, path, content),
  );
  return server;
}
//#endregion

//#region serve
const USAGE = "usage: server.ts <sandbox-folder>";
try {
  if (process.argv.length !== 3) throw new Error(`expected one sandbox folder\n${USAGE}`);
  const sandbox = await openSandbox(process.argv[2]!);
  serveStdio(
    ({ era }) => {
      console.error(`[server] a client opened a ${era}-era connection`);
      return createMcpServer(sandbox);
    },
    // A message that is not JSON-RPC gets no answer, only this report; zod's reports span many lines.
    { onerror: (error) => console.error(`[server] ${error.message.replace(/\s+/g, " ")}`) },
  );
  console.error(`[server] serving MCP on stdio with the SDK; sandbox ${sandbox}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
//#endregion
