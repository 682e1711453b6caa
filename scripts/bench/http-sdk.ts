// The SDK rows' server: the tutorial's McpServer factory behind createMcpHandler and toNodeHandler, with step 24's
// localhost guards, in the response mode asked for. `http-sdk.ts json|sse`; prints `listening on URL` on stderr.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { createMcpHandler, type McpServer } from "@modelcontextprotocol/server";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";

// @modelcontextprotocol/node is installed for chapter 24, not for the scripts (a new dependency would change the
// lockfile, which every docs block depends on): it is found from chapter 24's server, as the ES module build.
type Guard = (request: IncomingMessage, response: ServerResponse) => boolean;
interface NodeAdapter {
  toNodeHandler(handler: { fetch(request: Request): Promise<Response> }): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
  localhostHostValidation(): Guard;
  localhostOriginValidation(): Guard;
}
const adapterFile = createRequire(roleProgram("SDK server over HTTP")).resolve("@modelcontextprotocol/node").replace(/\.cjs$/, ".mjs");
const { toNodeHandler, localhostHostValidation, localhostOriginValidation } = (await import(pathToFileURL(adapterFile).href)) as NodeAdapter;

const responseMode = process.argv[2];
if (responseMode !== "json" && responseMode !== "sse") {
  console.error("usage: http-sdk.ts json|sse");
  process.exit(64);
}
const factory = (await import(roleProgram("SDK server over HTTP, its McpServer factory"))) as { createServer: () => McpServer };

//#region serve
// As step 24 serves it, but with the response mode fixed: "json" never streams, "sse" always does.
const handler = createMcpHandler(factory.createServer, { responseMode, onerror: (error) => console.error(`[sdk] ${error.message}`) });
const mcp = toNodeHandler(handler);
const [localHost, localOrigin] = [localhostHostValidation(), localhostOriginValidation()];
const http = createHttpServer((request, response) => {
  if (!localHost(request, response) || !localOrigin(request, response)) return;
  if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") return void response.writeHead(404).end();
  void mcp(request, response);
});
//#endregion

http.listen(0, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`));
process.once("SIGTERM", () => {
  void handler.close().then(() => {
    http.close();
    http.closeAllConnections();
  });
});
