// The bridge: any stdio MCP server, served over Streamable HTTP (2025-11-25) with node's http module, one server for
// every client. `server.ts [--port N] [-- <stdio server command…>]`. It forwards messages by their envelope and never
// reads a method.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
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

//#region session
// One server for the whole bridge, started with it: every client talks to the same one, as over a single pipe. When it
// ends there is nothing left to serve, and the bridge stops listening.
const session = new BridgeSession("the session", command, log, () => http.close());
log(`the session: started, server pid ${session.pid}`);
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

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  // GET would open a stream for the server's own messages; this bridge offers none, which the spec allows.
  if (request.method !== "POST") return void response.writeHead(405, { allow: "POST" }).end();
  const body = await readBody(request);
  let message: JsonRpcMessage;
  try {
    message = JSON.parse(body.toString("utf8")) as JsonRpcMessage;
  } catch {
    return void response.writeHead(400).end();
  }
  if (message.method !== undefined && message.id !== undefined) return session.request(message, body, response);
  // A notification, or the client's answer to a server's request: nothing comes back for it.
  session.send(message, body);
  response.writeHead(202).end();
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

// A signal ends the bridge through exit, which removes the server's folder. The server's stdin ends with the bridge,
// and a stdio server exits when its stdin ends.
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const) {
  process.on(signal, () => process.exit(status));
}
//#endregion
