// An McpServer served over Streamable HTTP with the SDK's own pieces, on node's http module.
// `server.ts [--port N]`. createMcpHandler answers both eras; local-only.ts and limits.ts stand in front of it.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { BodyBudget, boundConnections, TIMEOUTS } from "./limits.ts";
import { checkLocal } from "./local-only.ts";
import { createMcpServer } from "./mcp-server.ts";

//#region arguments
const args = process.argv.slice(2);
// No arguments, or --port and a whole number; 0 lets the system pick a free port.
const given = args.length === 0 ? "0" : args.length === 2 && args[0] === "--port" ? args[1]! : "";
const port = /^\d+$/.test(given) ? Number(given) : -1;
if (!(port >= 0 && port < 65536)) {
  console.error("usage: server.ts [--port N]");
  process.exit(64);
}
//#endregion

//#region requests
// A refusal in the shape of the SDK's own: a JSON-RPC error with id null. The connection closes, so no body is read.
function refuse(response: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  response
    .writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    })
    .end(body);
}

// The path of an origin-form target ("/mcp?x": one "/" first), or undefined, answered 400 instead of ending the
// process: new URL throws on `//%` or `//[` and reads `//evil/mcp` as a host's /mcp; a full URL or `*` is not served
// either.
const pathOf = (target = "/") =>
  /^\/(?!\/)/.test(target) && URL.canParse(target, "http://localhost")
    ? new URL(target, "http://localhost").pathname
    : undefined;

/** Trust in order: where a request comes from, its path, the room to read its body; then `mcp`, the MCP handler. */
function listener(
  name: string,
  mcp: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): RequestListener {
  const bodies = new BodyBudget();
  // Whatever throws becomes a 500 and one line on stderr: no stack reaches the client, and the process keeps serving.
  const fail = (response: ServerResponse, error: Error) => {
    console.error(`[${name}] request failed: ${error.message}`);
    if (response.headersSent) response.destroy();
    else refuse(response, 500, "Internal error");
  };
  return (request, response) => {
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
  };
}
//#endregion

//#region serve
// A 2026-07-28 request is served as it comes; a 2025-era one statelessly, by a fresh McpServer per request.
const handler = createMcpHandler(createMcpServer, { onerror: (error) => console.error(`[server] ${error.message}`) });
const mcp = toNodeHandler(handler);
const http = createHttpServer(TIMEOUTS, listener("server", mcp));
boundConnections(http);
http.on("error", (error) => {
  console.error(`cannot listen: ${error.message}`);
  process.exit(1);
});
http.listen(port, "127.0.0.1", () => {
  const address = http.address();
  if (typeof address === "object" && address) console.error(`listening on http://127.0.0.1:${address.port}/mcp`);
});
//#endregion

//#region stop
// Ending the handler ends its open streams, so the http server can close; then nothing is left to keep the process.
async function stop(signal: string): Promise<void> {
  console.error(`[server] ${signal}: closing`);
  await handler.close();
  http.close();
  http.closeAllConnections();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, (name) => void stop(name));
//#endregion
