// The bridge: any stdio MCP server, served over Streamable HTTP (2025-11-25, with sessions) with node's http
// module. `server.ts [--port N] [-- <stdio server command…>]`. It forwards messages by their envelope and never reads a
// method.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { header, Refusal } from "./checks.ts";
import { roleProgram } from "./roles.ts";
import { BridgeSession, type JsonRpcMessage } from "./session.ts";

/** Writes one of the bridge's log lines to stderr. */
const log = (line: string) => console.error(`[bridge] ${line}`);

//#region arguments
const args = process.argv.slice(2);
const [options, given] = args.includes("--")
  ? [args.slice(0, args.indexOf("--")), args.slice(args.indexOf("--") + 1)]
  : [args, []];
const port = options[0] === "--port" ? Number(options[1]) : 0; // 0: the system picks a free port
if (!(options.length === 0 || (options.length === 2 && Number.isInteger(port) && port >= 0 && port < 65536))) {
  console.error("usage: server.ts [--port N] [-- <stdio server command…>]");
  process.exit(64);
}
/** Without a command: the tutorial's stdio server, every stdio feature, working in a folder of its own. */
function tutorialServer(): string[] {
  const sandbox = mkdtempSync(path.join(tmpdir(), "learn-mcp-http-bridge-"));
  process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));
  return [
    process.execPath,
    "--import",
    import.meta.resolve("tsx"),
    roleProgram("SDK server, every stdio feature"),
    sandbox,
  ];
}
const command = given.length > 0 ? given : tutorialServer();
//#endregion

//#region sessions
const sessions = new Map<string, BridgeSession>();
let started = 0;

/** Only an initialize request starts a session, and a new child with it: a notification cannot, having no answer. */
async function openSession(message: JsonRpcMessage): Promise<BridgeSession> {
  if (message.method !== "initialize") throw new Refusal(400, "Mcp-Session-Id header is required");
  if (message.id === undefined) throw new Refusal(400, "initialize is a request: it needs an id");
  const session: BridgeSession = new BridgeSession(`session ${++started}`, command, log, () =>
    sessions.delete(session.id),
  );
  sessions.set(session.id, session);
  log(`${session.name}: started ${session.id}, server pid ${session.pid}`);
  return session;
}

function findSession(request: IncomingMessage): BridgeSession {
  const id = header(request, "mcp-session-id");
  if (id === undefined) throw new Refusal(400, "Mcp-Session-Id header is required");
  const session = sessions.get(id);
  if (!session) throw new Refusal(404, "Session not found: it ended, or never was");
  return session;
}
//#endregion

//#region post
/** The whole body. Nothing bounds it yet: a client that sends without end would hold the bridge's memory. */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request
      .on("data", (chunk: Buffer) => chunks.push(chunk))
      .on("end", () => resolve(Buffer.concat(chunks)))
      .on("error", reject);
  });
}

async function handlePost(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  let message: JsonRpcMessage;
  try {
    message = JSON.parse(body.toString("utf8")) as JsonRpcMessage;
  } catch {
    throw new Refusal(400, "Parse error: the body is not JSON", -32700);
  }
  const session = request.headers["mcp-session-id"] === undefined ? await openSession(message) : findSession(request);
  if (message.method !== undefined && message.id !== undefined) return session.request(message, body, response);
  // A notification, or the client's answer to a server's request: nothing comes back for it.
  session.send(message, body);
  response.writeHead(202, { "mcp-session-id": session.id }).end();
}
//#endregion

//#region delete
/** DELETE: ends the session and stops its server. */
async function handleDelete(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const session = findSession(request);
  sessions.delete(session.id);
  await session.stop();
  log(`${session.name}: ended by DELETE`);
  response.writeHead(204).end();
}
//#endregion

//#region handle
async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    if (request.url?.split("?")[0] !== "/mcp") throw new Refusal(404, "the endpoint is /mcp");
    if (request.method === "POST") return await handlePost(request, response);
    if (request.method === "DELETE") return await handleDelete(request, response);
    // GET would open a stream for the server's own messages; this bridge offers none, which the spec allows.
    throw new Refusal(405, "this bridge opens no stream for GET", -32000, { allow: "POST, DELETE" });
  } catch (error) {
    if (!(error instanceof Refusal)) log(`internal error: ${String(error).split("\n")[0]}`); // one line, no stack
    const { status, code, message, headers } =
      error instanceof Refusal ? error : new Refusal(500, "Internal error", -32603);
    if (response.headersSent) return void response.end();
    const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
    response
      .writeHead(status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) })
      .end(body);
  }
}
//#endregion

//#region listen
const http = createServer((request, response) => void handle(request, response));
http.on("error", (error) => {
  console.error(`cannot listen: ${error.message}`);
  process.exit(1);
});
http.listen(port, "127.0.0.1", () =>
  console.error(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`),
);

// A signal stops every child's whole process group before the bridge goes: nothing is left behind.
let stopping = false;
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${sessions.size} session(s)`);
    http.close();
    http.closeAllConnections();
    void Promise.all([...sessions.values()].map((session) => session.stop())).then(() => process.exit(status));
  });
}
//#endregion
