// The scale-out server as an OAuth 2.1 protected resource. Every request to /mcp needs a token from the
// authorization server at --issuer, minted for this server; each worker checks tokens on its own, as they carry all
// it needs. `server.ts [--port N] [--workers N] --issuer URL`.
import cluster from "node:cluster";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { BOARD_URI } from "./board.ts";
import { ClusterEventBus, relayEvents } from "./bus.ts";
import { BodyBudget, boundConnections, TIMEOUTS } from "./limits.ts";
import { checkLocal } from "./local-only.ts";
import { createMcpServer } from "./mcp-server.ts";
import { discoverIssuer, protectedResource } from "./protected-resource.ts";
import { LegacySessions } from "./sessions.ts";

//#region arguments
const args = process.argv.slice(2);
// --port and --workers, each followed by a whole number, and --issuer with a URL, in any order; nothing else.
const pairs = new Map(args.flatMap((arg, i) => (i % 2 === 0 ? [[arg, args[i + 1] ?? ""] as const] : [])));
const known =
  [...pairs.keys()].every((name) => ["--port", "--workers", "--issuer"].includes(name)) &&
  pairs.size * 2 === args.length;
const option = (name: string, fallback: number) =>
  pairs.has(name) ? (/^\d+$/.test(pairs.get(name)!) ? Number(pairs.get(name)) : -1) : fallback;
const port = option("--port", 0); // 0: the system picks a free port, and every worker shares it
const workers = option("--workers", 2);
const issuer = pairs.get("--issuer") ?? "";
if (!known || !(port >= 0 && port < 65536) || !(workers >= 1 && workers <= 16) || !URL.canParse(issuer)) {
  console.error("usage: server.ts [--port N] [--workers N (1 to 16)] --issuer URL");
  process.exit(64);
}
//#endregion

//#region primary
function primary(): void {
  const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-board-"));
  process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  const board = path.join(folder, "board.jsonl");
  writeFileSync(board, "");
  console.error(`[primary] the board is ${board}`);
  relayEvents();
  const running = new Set<number>();
  for (let i = 0; i < workers; i++) {
    const worker = cluster.fork({ LEARN_MCP_BOARD: board });
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
      // Which paths exist is protectedResource's to say: the MCP endpoint, and the metadata documents beside it.
      if (pathOf(request.url) === undefined)
        return refuse(response, 400, "Bad Request: the request-target is not a path");
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
async function worker(): Promise<void> {
  const name = `worker ${cluster.worker!.id}`;
  const board = { file: process.env.LEARN_MCP_BOARD!, changed: () => modern.notify.resourceUpdated(BOARD_URI) };
  // The bus is what the cluster needs: listen streams hear of changes made in any worker.
  const modern = createMcpHandler(() => createMcpServer(board, true), {
    legacy: "reject",
    bus: new ClusterEventBus(),
    onerror: (error) => console.error(`[${name}] ${error.message}`),
  });
  const sessions = new LegacySessions(() => createMcpServer(board, false));
  const route = async (request: Request, options?: Parameters<typeof modern.fetch>[1]) =>
    (await isLegacyRequest(request)) ? sessions.handle(request, options?.authInfo) : modern.fetch(request, options);

  // The authorization server's metadata names the keys its tokens are signed with; without it, nothing can be checked.
  const metadata = await discoverIssuer(issuer).catch((error: Error) => {
    console.error(`[${name}] ${error.message}`);
    process.exit(1);
  });
  // Listen first: the server's URL, which the port decides, is the audience its tokens must name.
  const http = createHttpServer(TIMEOUTS);
  boundConnections(http);
  http.on("error", (error) => {
    console.error(`[${name}] cannot listen: ${error.message}`);
    process.exit(1);
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const resource = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const mcp = toNodeHandler({ fetch: protectedResource({ fetch: route }, metadata, resource) });
  http.on("request", listener(name, mcp));

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
else await worker();
