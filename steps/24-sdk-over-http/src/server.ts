// Step 24: an McpServer served over Streamable HTTP with the SDK's own pieces, on node's http module.
// `server.ts [--port N]`. createMcpHandler answers both eras; the localhost guards stand in front of it.
import { createServer as createHttpServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createServer } from "./mcp-server.ts";

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

//#region serve
// A 2026-07-28 request is served as it comes; a 2025-era one statelessly, by a fresh McpServer per request.
const handler = createMcpHandler(createServer, { onerror: (error) => console.error(`[server] ${error.message}`) });
const mcp = toNodeHandler(handler);
// Each guard answers 403 itself and returns false: a foreign Host (DNS rebinding) or a web page's foreign Origin.
const localHost = localhostHostValidation();
const localOrigin = localhostOriginValidation();

const http = createHttpServer((request, response) => {
  if (!localHost(request, response) || !localOrigin(request, response)) return;
  if (new URL(request.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") return void response.writeHead(404).end();
  void mcp(request, response);
});
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
