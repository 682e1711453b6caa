// Demo: the bridge serves the tutorial's stdio server over Streamable HTTP. The SDK's HTTP client calls
// count_slowly through it with a progress bar and ends its session; plain requests then show what the bridge refuses.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { leftInGroups } from "./groups.ts";
import { progressBar } from "./progress-bar.ts";

//#region interrupted
// Ctrl-C reaches the bridge too, and a request it can no longer answer may fail before the demo's own signal is
// handled: a failure waits 2 s for that signal before it is printed, and a signal ends the demo with one line saying
// where it was.
let doing = "starting the bridge";
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const)
  process.on(signal, () => process.exit(status));
process.on("exit", (code) => void (code > 128 && console.error(`interrupted while ${doing}`)));
process.on("uncaughtException", (error) => void setTimeout(() => (console.error(error), process.exit(1)), 2000));
//#endregion

//#region start
// The bridge is a program of its own, as a deployed server would be; it says where it listens on stderr.
const program = fileURLToPath(new URL("./server.ts", import.meta.url));
const bridge = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, "--port", "0"], {
  stdio: ["ignore", "ignore", "pipe"],
});
process.once("exit", () => bridge.kill()); // even if the demo fails: a server it started must not outlive it
const stderr: string[] = [];
const listening = new Promise<string>((resolve, reject) => {
  createInterface({ input: bridge.stderr }).on("line", (line) =>
    line.startsWith("listening on ") ? resolve(line) : stderr.push(line),
  );
  bridge.on("exit", (code) => reject(new Error(`the bridge exited with code ${code}`)));
});
const url = (await listening).replace("listening on ", "");
console.log(`$ server.ts --port 0\n${await listening}\n`);
//#endregion

doing = "using the bridge with the SDK's client";
//#region client
const client = new Client({ name: "learn-mcp-demo", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
const session = transport.sessionId!;
console.log(
  `connected to ${client.getServerVersion()?.name} over HTTP, protocol ` +
    `${client.getNegotiatedProtocolVersion()}, Mcp-Session-Id <session id>`,
);
console.log(`tools/list: ${(await client.listTools()).tools.map((tool) => tool.name).join(", ")}`);

// As over stdio, the request names its progressToken in _meta and notifications/progress are routed by it.
const bar = progressBar();
const progressToken = "count-1";
client.setNotificationHandler("notifications/progress", ({ params }) => {
  if (params.progressToken === progressToken) bar.update(params);
});
bar.print('tools/call count_slowly {"to":4}');
const result = await client.callTool({ name: "count_slowly", arguments: { to: 4 }, _meta: { progressToken } });
bar.print(`-> result ${JSON.stringify(result.content)}`);
await transport.terminateSession(); // DELETE /mcp: the bridge stops this session's server
await client.close();
console.log("DELETE /mcp ended the session\n");
//#endregion

doing = "sending requests the bridge refuses";
//#region refusals
const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

/** One line for a refusal: what was sent, the status, and the message of the JSON-RPC error in the body. */
function report(what: string, status: string, body: string, allow?: string | null): void {
  const { error } = JSON.parse(body) as { error: { code: number; message: string } };
  console.log(`${what.padEnd(44)} -> ${status}${allow ? ` (Allow: ${allow})` : ""}: ${error.code} ${error.message}`);
}

async function show(what: string, init: RequestInit): Promise<void> {
  const response = await fetch(url, init);
  report(what, `${response.status} ${response.statusText}`, await response.text(), response.headers.get("allow"));
}

await show("POST ping in the ended session", {
  method: "POST",
  headers: { ...json, "mcp-session-id": session },
  body: ping,
});
await show("POST ping with no Mcp-Session-Id", { method: "POST", headers: json, body: ping });
await show("POST as text/plain", { method: "POST", headers: { ...json, "content-type": "text/plain" }, body: ping });
await show("POST accepting only application/json", {
  method: "POST",
  headers: { ...json, accept: "application/json" },
  body: ping,
});
await show("POST with MCP-Protocol-Version 2024-11-05", {
  method: "POST",
  headers: { ...json, "mcp-protocol-version": "2024-11-05" },
  body: ping,
});
await show('POST of {"jsonrpc":', { method: "POST", headers: json, body: '{"jsonrpc":' });
await show("POST of a batch [ping]", { method: "POST", headers: json, body: `[${ping}]` });
await show("GET /mcp", { method: "GET", headers: { accept: "text/event-stream" } });

// fetch sets Host and Content-Length itself: node's http module sends what it is told.
function raw(what: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers: { ...json, ...headers } }, (response) => {
      let body = "";
      response.setEncoding("utf8").on("data", (text: string) => (body += text));
      response.on("end", () => resolve(report(what, `${response.statusCode} ${response.statusMessage}`, body)));
    });
    request.on("error", reject);
    request.end(headers["content-length"] === undefined ? ping : undefined);
  });
}
await raw("POST with Host: evil.example", { host: "evil.example" });
await raw("POST announcing a 5 MiB body", { "content-length": String(5 * 1024 * 1024) });
//#endregion

doing = "stopping the bridge";
//#region stop
bridge.kill("SIGTERM");
const [code] = (await once(bridge, "exit")) as [number];
console.log(`\nSIGTERM: the bridge exited with code ${code}`);
// Each session's server led a process group of its own, named in the bridge's log.
const groups = [bridge.pid!, ...stderr.flatMap((line) => /server pid (\d+)/.exec(line)?.[1] ?? []).map(Number)];
const left = await leftInGroups(groups);
console.log(left.length === 0 ? "no process left" : `still running: ${left.join(", ")}`);
const normalized = stderr.map((line) =>
  line.replaceAll(session, "<session id>").replace(/server pid \d+/, "server pid <pid>"),
);
console.log(`\nthe bridge's stderr:\n${normalized.map((line) => `  ${line}`).join("\n")}`);
if (code !== 143 || left.length > 0) process.exitCode = 1;
//#endregion

doing = "speaking HTTP+SSE to the previous SDK's server";
//#region legacy
// The transport Streamable HTTP replaced (2024-11-05), served by the previous SDK: GET /sse opens a stream that stays
// open, its first event names where to POST, and each answer comes back on that stream while the POST gets only 202.
const fixture = fileURLToPath(new URL("./fixtures/legacy-sse-server.mjs", import.meta.url));
const old = spawn(process.execPath, [fixture], { stdio: ["pipe", "ignore", "pipe"] });
const oldLog = createInterface({ input: old.stderr })[Symbol.asyncIterator]();
const sseUrl = ((await oldLog.next()).value as string).replace("listening on ", "");
console.log(`\nthe older HTTP+SSE transport, served by the previous SDK: ${sseUrl}`);

/** The events of a server-sent event stream, one { event, data } per blank-line-separated block. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  let buffered = "";
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    for (let end = buffered.indexOf("\n\n"); end !== -1; end = buffered.indexOf("\n\n")) {
      const lines = buffered.slice(0, end).split("\n");
      buffered = buffered.slice(end + 2);
      const field = (name: string) =>
        lines
          .filter((line) => line.startsWith(`${name}: `))
          .map((line) => line.slice(name.length + 2))
          .join("\n");
      yield { event: field("event") || "message", data: field("data") };
    }
  }
}

const stream = await fetch(sseUrl, { headers: { accept: "text/event-stream" } });
const events = readEvents(stream.body!);
const endpoint = (await events.next()).value!;
const hideId = (text: string) => text.replace(/sessionId=[\w-]+/, "sessionId=<id>");
console.log(
  `GET /sse -> ${stream.status} ${stream.headers.get("content-type")}, ` +
    `first event: ${endpoint.event} ${hideId(endpoint.data)}`,
);

const messages = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2024-11-05",
      capabilities: {},
      clientInfo: { name: "learn-mcp-demo", version: "0.1.0" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 40 } } },
];
for (const message of messages) {
  const posted = await fetch(new URL(endpoint.data, sseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(message),
  });
  console.log(
    `POST ${hideId(endpoint.data)} ${message.method} -> ${posted.status} ` +
      `${posted.statusText}: ${JSON.stringify(await posted.text())}`,
  );
  if (!("id" in message)) continue;
  const { event, data } = (await events.next()).value!;
  console.log(`  on the GET stream, event "${event}": ${data}`);
}
await events.return(undefined); // stops reading: the GET ends, and with it the session
console.log(`the legacy server's stderr: ${(await oldLog.next()).value}`);
const late = await fetch(new URL(endpoint.data, sseUrl), {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(messages[2]),
});
console.log(`POST ${hideId(endpoint.data)} tools/call -> ${late.status} ${late.statusText}`);
old.stdin!.end();
const [oldCode] = (await once(old, "exit")) as [number];
console.log(`the legacy server exited with code ${oldCode}`);
if (oldCode !== 0) process.exitCode = 1;
//#endregion
