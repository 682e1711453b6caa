// Step 25: both eras on one endpoint. 2026-07-28 requests are served statelessly by createMcpHandler; 2025-era
// clients get sessions again, so the server can ask them questions. `server.ts [--port N]`.
import { createServer as createHttpServer } from "node:http";
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { createServer } from "./mcp-server.ts";
import { Sessions } from "./sessions.ts";

//#region arguments
const args = process.argv.slice(2);
const port = args[0] === "--port" ? Number(args[1]) : 0; // 0: the system picks a free port
if (!(args.length === 0 || (args.length === 2 && Number.isInteger(port) && port >= 0 && port < 65536))) {
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
