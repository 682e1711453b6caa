// The server: add, echo, three file tools confined to one workspace folder, and sample_media, on the SDK's
// McpServer. serveStdio takes a factory, not a server: the first message picks the era, and one McpServer serves that
// connection.
//#region imports
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
//#endregion
import { beepWav, gradientPng } from "./media.ts";
import { listInside, openWorkspace, readInside, SIZE_LIMIT, WorkspaceError, writeInside } from "./workspace.ts";

/** A tool result of one text item. */
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
/** A tool result of one text item, marked isError: a failure the model can read. */
const toolError = (value: string): CallToolResult => ({ ...text(value), isError: true });

//#region file-tool
/** Runs one file tool's work and turns its outcome into a tool result. */
// The workspace's refusals go back as they are; anything else, such as an error naming an absolute path, only to
// stderr.
function fileTool(tool: string, path: string, run: () => string): CallToolResult {
  try {
    return text(run());
  } catch (error) {
    if (error instanceof WorkspaceError) return toolError(`${tool} refused ${JSON.stringify(path)}: ${error.message}`);
    console.error(`[server] ${tool} ${JSON.stringify(path)} failed:`, error);
    return toolError(`${tool} failed with an internal error`);
  }
}
//#endregion

//#region file-tools
const RULES =
  `Paths are relative to the workspace folder; "..", absolute paths, ` +
  `symbolic links and files over ${SIZE_LIMIT} bytes are refused.`;
const workspacePath = z.string().describe("Relative to the workspace folder");

/** Registers read_file, list_files and write_file, each bound to the workspace folder. */
function registerFileTools(server: McpServer, workspace: string): void {
  server.registerTool(
    "read_file",
    { description: `Reads a UTF-8 text file. ${RULES}`, inputSchema: z.strictObject({ path: workspacePath }) },
    ({ path }) => fileTool("read_file", path, () => readInside(workspace, path)),
  );
  server.registerTool(
    "list_files",
    {
      description: `Lists a folder, folders ending in "/"; "." is the workspace. ${RULES}`,
      inputSchema: z.strictObject({ path: workspacePath }),
    },
    ({ path }) => fileTool("list_files", path, () => listInside(workspace, path)),
  );
  server.registerTool(
    "write_file",
    {
      description: `Creates or replaces a UTF-8 text file. ${RULES}`,
      inputSchema: z.strictObject({ path: workspacePath, content: z.string() }),
    },
    ({ path, content }) =>
      fileTool("write_file", path, () => `Wrote ${writeInside(workspace, path, content)} bytes to ${path}`),
  );
}
//#endregion

//#region sample-media
// One item of each content type; binary data travels as base64, next to its MIME type.
const NOTES_URI = "sample://notes.md";
const GRADIENT_URI = "sample://gradient.png";

/** The sample_media tool's result: one item of each content type. */
function sampleMedia(): CallToolResult {
  const png = gradientPng();
  const notes = "# Samples\n\nAn embedded resource carries its content; a resource link only points to it.\n";
  return {
    content: [
      {
        type: "text",
        text: "One item of each content type: text, image, audio, an embedded resource and a resource link.",
      },
      { type: "image", mimeType: "image/png", data: png.toString("base64") },
      { type: "audio", mimeType: "audio/wav", data: beepWav().toString("base64") },
      { type: "resource", resource: { uri: NOTES_URI, mimeType: "text/markdown", text: notes } },
      { type: "resource_link", uri: GRADIENT_URI, name: "gradient.png", mimeType: "image/png", size: png.length },
    ],
  };
}
//#endregion

//#region tools
/** The MCP server and its tools. */
function createMcpServer(workspace: string): McpServer {
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
  registerFileTools(server, workspace);
  server.registerTool(
    "sample_media",
    {
      description:
        "Returns one content item of each type: text, a PNG image, " +
        "a WAV sound, an embedded resource and a resource link.",
      inputSchema: z.strictObject({}),
    },
    sampleMedia,
  );
  return server;
}
//#endregion

//#region serve
const USAGE = "usage: server.ts <workspace-folder>";
try {
  if (process.argv.length !== 3) throw new Error(`expected one workspace folder\n${USAGE}`);
  const workspace = openWorkspace(process.argv[2]!);
  serveStdio(
    ({ era }) => {
      console.error(`[server] a client opened a ${era}-era connection`);
      return createMcpServer(workspace);
    },
    // A message that is not JSON-RPC gets no answer, only this report; zod's reports span many lines.
    { onerror: (error) => console.error(`[server] ${error.message.replace(/\s+/g, " ")}`) },
  );
  console.error(`[server] serving MCP on stdio with the SDK; workspace ${workspace}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
//#endregion
