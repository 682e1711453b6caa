// The stateless server as several processes. The primary forks workers that all listen on one port, and
// hands them connections in turn; each worker serves on its own, and they share nothing.
// `server.ts [--port N] [--workers N]`.
import cluster from "node:cluster";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { BodyBudget, boundConnections, TIMEOUTS } from "./limits.ts";
import { checkLocal } from "./local-only.ts";
import { createMcpServer } from "./mcp-server.ts";
import { LegacySessions } from "./sessions.ts";

//#region arguments
const args = process.argv.slice(2);
// --port and --workers, each followed by a whole number, in any order; anything else is a usage error.
const pairs = new Map(args.flatMap((arg, i) => (i % 2 === 0 ? [[arg, args[i + 1] ?? ""] as const] : [])));
const known =
  [...pairs.keys()].every((name) => name === "--port" || name === "--workers") && pairs.size * 2 === args.length;
const option = (name: string, fallback: number) =>
  pairs.has(name) ? (/^\d+$/.test(pairs.get(name)!) ? Number(pairs.get(name)) : -1) : fallback;
const port = option("--port", 0); // 0: the system picks a free port, and every worker shares it
const workers = option("--workers", 2);
if (!known || !(port >= 0 && port < 65536) || !(workers >= 1 && workers <= 16)) {
  console.error("usage: server.ts [--port N] [--workers N (1 to 16)]");
  process.exit(64);
}
//#endregion

//#region primary
function primary(): void {
  const running = new Set<number>();
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork();
    running.add(worker.id);
    console.error(`[primary] worker ${worker.id} is pid ${worker.process.pid}`);
  }

  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    if (++listening === workers) console.error(`listening on http://127.0.0.1:${address.port}/mcp`);
  });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`[primary] ${why}: stopping ${running.size} worker(s)`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
  };
  // A worker that dies on its own takes the others down with it, and the server exits 1: better than half a server.
  let failed = false;
  cluster.on("exit", (worker, code, signal) => {
    running.delete(worker.id);
    if (!stopping) {
      failed = true;
      stop(`worker ${worker.id} exited unasked (${code ?? signal})`);
    }
    if (running.size === 0) process.exit(failed ? 1 : 0);
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
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
      response.setHeader("x-served-by", name); // for the demo: which process answered
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

//#region worker
function worker(): void {
  const name = `worker ${cluster.worker!.id}`;
  const modern = createMcpHandler(createMcpServer, {
    legacy: "reject",
    onerror: (error) => console.error(`[${name}] ${error.message}`),
  });
  const sessions = new LegacySessions(createMcpServer);
  const mcp = toNodeHandler({
    fetch: async (request) => ((await isLegacyRequest(request)) ? sessions.handle(request) : modern.fetch(request)),
  });
  const http = createHttpServer(TIMEOUTS, listener(name, mcp));
  boundConnections(http);
  http.on("error", (error) => {
    console.error(`[${name}] cannot listen: ${error.message}`);
    process.exit(1);
  });
  http.listen(port, "127.0.0.1");

  // A worker stops on a signal. When the primary is gone, its channel closes and node's cluster ends the worker itself.
  const stop = async () => {
    await Promise.all([modern.close(), sessions.closeAll()]);
    http.close().closeAllConnections();
    process.disconnect();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => void stop());
}
//#endregion

if (cluster.isPrimary) primary();
else worker();
