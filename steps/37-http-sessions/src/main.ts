// Demo: the bridge serves the tutorial's stdio server over Streamable HTTP. The SDK's HTTP client calls count_slowly
// through it and ends its session; plain requests then show what the bridge refuses.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { leftInGroups } from "./groups.ts";

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

// As over stdio, the request asks for progress; the server sends it, and logs, but a JSON answer has no room for
// either: the bridge's stderr, at the end, says what it dropped.
const progressToken = "count-1";
console.log('tools/call count_slowly {"to":2}');
const result = await client.callTool({ name: "count_slowly", arguments: { to: 2 }, _meta: { progressToken } });
console.log(`-> result ${JSON.stringify(result.content)}`);
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
await show('POST of {"jsonrpc":', { method: "POST", headers: json, body: '{"jsonrpc":' });
await show("GET /mcp", { method: "GET", headers: { accept: "text/event-stream" } });

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
