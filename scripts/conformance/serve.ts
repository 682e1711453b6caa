// How everything.ts serves: over HTTP, 2025-era traffic in sessions (the suite's 2025 scenarios need server-to-client
// requests, a GET stream and DELETE) and 2026-07-28 traffic statelessly; or over stdio. It takes the tutorial's
// McpServer factory as an argument, so that the harness can bundle it with the role's module named at build time.
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpRequestContext,
  type McpServer,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { pathOf, refuse } from "../shared/http-refusal.ts";
import { registerContentTools, registerPrompts, registerResources } from "./fixtures.ts";
import { registerLegacyTools, registerSubscriptions } from "./legacy-fixtures.ts";
import { registerModernFixtures } from "./modern-fixtures.ts";

//#region factory
type Factory = (context: Pick<McpRequestContext, "era">) => McpServer;

/** A factory of McpServers with the tutorial's tools and the suite's fixtures for the era each will serve. */
function everything(createMcpServer: () => McpServer): Factory {
  return ({ era }) => {
    const server = createMcpServer();
    registerContentTools(server);
    registerResources(server);
    registerPrompts(server);
    if (era === "legacy") {
      registerLegacyTools(server);
      registerSubscriptions(server);
    } else {
      registerModernFixtures(server);
    }
    return server;
  };
}
//#endregion

//#region legacy sessions
// A 2025 session is one McpServer on one sessionful transport, kept until the client DELETEs it or the process ends.
const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

async function serveLegacy(createEverything: Factory, request: Request): Promise<Response> {
  const id = request.headers.get("mcp-session-id");
  const known = id === null ? undefined : sessions.get(id);
  if (known) return known.handleRequest(request);
  if (id !== null)
    return Response.json(
      { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } },
      { status: 404 },
    );
  // No session yet: only an initialize request starts one; the transport answers anything else with 400 itself.
  const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: randomUUID,
    onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    onsessionclosed: (sessionId) => void sessions.delete(sessionId),
  });
  await createEverything({ era: "legacy" }).connect(transport);
  return transport.handleRequest(request);
}
//#endregion

//#region http
// The tutorial's Host and Origin rule, as the "SDK server over HTTP" role's local-only.ts has it (the harness is
// bundled from here, and names no step folder): this machine's three names, parsed as host[:port] by hand, as URL
// would let "evil.com@localhost" in.
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;
function isLocalHost(host: string): boolean {
  const match = LOCAL_HOST.exec(host);
  const port = Number(match?.[1] ?? 1);
  return match !== null && port >= 1 && port <= 65535;
}
const isLocalOrigin = (origin: string) =>
  /^https?:\/\//i.test(origin) && isLocalHost(origin.replace(/^https?:\/\//i, ""));

/** Why `request` is refused before the MCP handler sees it, or undefined. */
function refusal(request: IncomingMessage): [number, string] | undefined {
  const hosts = request.headersDistinct.host ?? [];
  if (hosts.length !== 1) return [400, "Bad Request: a request needs exactly one Host header"];
  if (!isLocalHost(hosts[0]!)) return [403, `Invalid Host: ${hosts[0]}`];
  if (request.headers.origin !== undefined && !isLocalOrigin(request.headers.origin))
    return [403, `Invalid Origin: ${request.headers.origin}`];
  const path = pathOf(request.url);
  if (path === undefined) return [400, "Bad Request: the request-target is not a path"];
  return path === "/mcp" ? undefined : [404, "Not Found"];
}

function serveHttp(createEverything: Factory, port: number): void {
  const onerror = (error: Error) => console.error(`[everything] ${error.message}`);
  const modern = createMcpHandler(createEverything, { legacy: "reject", onerror });
  const mcp = toNodeHandler(
    {
      fetch: async (request) =>
        (await isLegacyRequest(request)) ? serveLegacy(createEverything, request) : modern.fetch(request),
    },
    { onerror },
  );
  // Any throw becomes a 500 and a line on stderr: the suite's next scenario finds the server still serving.
  const fail = (response: ServerResponse, error: Error) => {
    onerror(error);
    if (response.headersSent) response.destroy();
    else refuse(response, 500, "Internal error");
  };
  const http = createHttpServer((request, response) => {
    try {
      const refused = refusal(request);
      if (refused) return refuse(response, ...refused);
      mcp(request, response).catch((error: Error) => fail(response, error));
    } catch (error) {
      fail(response, error as Error);
    }
  });
  http.listen(port, "127.0.0.1", () =>
    console.error(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`),
  );
  const stop = async () => {
    await Promise.all([modern.close(), ...[...sessions.values()].map((transport) => transport.close())]);
    http.close();
    http.closeAllConnections();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, () => void stop());
}
//#endregion

//#region main
/** `--port N` (0: a free port; the listening line goes to stderr) or `--stdio`. */
export function serveEverything(createMcpServer: () => McpServer, args: string[]): void {
  const port = args[0] === "--port" && args.length === 2 ? Number(args[1]) : NaN;
  if (args.length === 1 && args[0] === "--stdio")
    serveStdio(everything(createMcpServer), { onerror: (error) => console.error(`[everything] ${error.message}`) });
  else if (Number.isInteger(port) && port >= 0 && port < 65536) serveHttp(everything(createMcpServer), port);
  else {
    console.error("usage: everything.ts --port N | --stdio");
    process.exit(64);
  }
}
//#endregion
