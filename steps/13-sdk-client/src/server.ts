// Step 05's stdio server: the official SDK's McpServer with seven tools over one workspace folder.
// serveStdio takes a factory, not a server: it builds one McpServer per connection in whichever era the client opens.
//#region imports
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
//#endregion
import { registerTools } from "./tools.ts";
import { Workspace } from "./workspace.ts";

// stdout belongs to the protocol; every log line goes to stderr.
const log = (message: string) => console.error(`[server] ${message}`);

//#region workspace
function openWorkspace(folder: string | undefined): Workspace {
  if (folder === undefined) throw new Error("usage: server.ts <workspace-folder>");
  return Workspace.open(folder);
}

let workspace: Workspace;
try {
  workspace = openWorkspace(process.argv[2]);
} catch (error) {
  log((error as Error).message);
  process.exit(2);
}
//#endregion

//#region factory
function createServer(): McpServer {
  const server = new McpServer({ name: "learn-mcp-sdk-server", version: "0.5.0" });
  registerTools(server, workspace);
  return server;
}
//#endregion

//#region serve
serveStdio(
  ({ era }) => {
    log(`a client opened a ${era}-era connection`);
    return createServer();
  },
  { onerror: (error) => log(`error: ${error.message}`) },
);
log(`serving ${workspace.root} over stdio`);
//#endregion
