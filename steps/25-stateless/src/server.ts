// Step 25: both eras on one endpoint. 2026-07-28 requests are served statelessly by createMcpHandler; 2025-era
// clients get sessions again, so the server can ask them questions. `server.ts [--port N]`.
import { createServer as createHttpServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { createServer } from "./mcp-server.ts";
import { Sessions } from "./sessions.ts";

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
// The modern handler refuses what it does not serve; isLegacyRequest is the SDK's own test for which era a request is.
const modern = createMcpHandler(createServer, { legacy: "reject", onerror: (error) => console.error(`[server] ${error.message}`) });
const sessions = new Sessions(createServer);
const mcp = toNodeHandler({
  fetch: async (request) => ((await isLegacyRequest(request)) ? sessions.handle(request) : modern.fetch(request)),
});
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
async function stop(signal: string): Promise<void> {
  console.error(`[server] ${signal}: closing ${sessions.size} session(s)`);
  await Promise.all([modern.close(), sessions.closeAll()]);
  http.close();
  http.closeAllConnections();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, (name) => void stop(name));
//#endregion
