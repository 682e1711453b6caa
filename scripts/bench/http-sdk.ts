// The SDK rows' server: the tutorial's McpServer factory behind createMcpHandler and toNodeHandler, behind the
// local-only check and bounds of the "SDK server over HTTP" role, in the response mode asked for.
// `http-sdk.ts json|sse`; prints `listening on URL` on stderr.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from "node:http";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { createMcpHandler, type McpServer } from "@modelcontextprotocol/server";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { pathOf, refuse } from "../shared/http-refusal.ts";

// @modelcontextprotocol/node is installed for the steps, not for the scripts (a new dependency would change the
// lockfile, which every docs block depends on): it is found from the "SDK server over HTTP", as the ES module
// build. Its local-only.ts and limits.ts are found beside that server, so that these rows pay for the same checks.
const sdkServer = roleProgram("SDK server over HTTP");
interface NodeAdapter {
  toNodeHandler(handler: {
    fetch(request: Request): Promise<Response>;
  }): (request: IncomingMessage, response: ServerResponse) => Promise<void>;
}
const adapterFile = createRequire(sdkServer)
  .resolve("@modelcontextprotocol/node")
  .replace(/\.cjs$/, ".mjs");
const { toNodeHandler } = (await import(pathToFileURL(adapterFile).href)) as NodeAdapter;
type Refusal = { status: number; message: string } | undefined;
interface Limits {
  TIMEOUTS: ServerOptions;
  boundConnections(server: Server): void;
  BodyBudget: new () => { admit(request: IncomingMessage, response: ServerResponse): Refusal };
}
const beside = (file: string) => new URL(file, pathToFileURL(sdkServer)).href;
const { checkLocal } = (await import(beside("./local-only.ts"))) as {
  checkLocal: (request: IncomingMessage) => Refusal;
};
const { BodyBudget, boundConnections, TIMEOUTS } = (await import(beside("./limits.ts"))) as Limits;

const responseMode = process.argv[2];
if (responseMode !== "json" && responseMode !== "sse") {
  console.error("usage: http-sdk.ts json|sse");
  process.exit(64);
}
const factory = (await import(roleProgram("SDK server over HTTP, its McpServer factory"))) as {
  createMcpServer: () => McpServer;
};

//#region serve
// As the "SDK server over HTTP" serves it, but with the response mode fixed: "json" never streams, "sse" always does.
const handler = createMcpHandler(factory.createMcpServer, {
  responseMode,
  onerror: (error) => console.error(`[sdk] ${error.message}`),
});
const mcp = toNodeHandler(handler);
const bodies = new BodyBudget();
function fail(response: ServerResponse, error: Error): void {
  console.error(`[sdk] request failed: ${error.message}`);
  if (response.headersSent) response.destroy();
  else refuse(response, 500, "Internal error");
}
const http = createHttpServer(TIMEOUTS, (request, response) => {
  try {
    const local = checkLocal(request);
    if (local) return refuse(response, local.status, local.message);
    const path = pathOf(request.url);
    if (path === undefined) return refuse(response, 400, "Bad Request: the request-target is not a path");
    if (path !== "/mcp") return void response.writeHead(404).end();
    const full = bodies.admit(request, response);
    if (full) return refuse(response, full.status, full.message);
    mcp(request, response).catch((error: Error) => fail(response, error));
  } catch (error) {
    fail(response, error as Error);
  }
});
boundConnections(http);
//#endregion

http.listen(0, "127.0.0.1", () =>
  console.error(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`),
);
process.once("SIGTERM", () => {
  void handler.close().then(() => {
    http.close();
    http.closeAllConnections();
  });
});
