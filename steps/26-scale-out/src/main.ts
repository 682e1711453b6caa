// Step 26 demo: the server as two worker processes behind node's cluster module. A burst of 2026-07-28 requests, each
// on a connection of its own, lands on both workers and every one succeeds; a 2025-era session breaks as soon as a
// request reaches the other worker; a change posted through one worker reaches a listener held by the other.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { isRunning } from "./processes.ts";

//#region start
const program = fileURLToPath(new URL("./server.ts", import.meta.url));
const server = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, "--port", "0", "--workers", "2"], { stdio: ["ignore", "ignore", "pipe"] });
const stderr: string[] = [];
const listening = new Promise<string>((resolve, reject) => {
  createInterface({ input: server.stderr }).on("line", (line) => (line.startsWith("listening on ") ? resolve(line) : stderr.push(line)));
  server.on("exit", (code) => reject(new Error(`the server exited with code ${code}`)));
});
const url = (await listening).replace("listening on ", "");
console.log(`$ server.ts --port 0 --workers 2\n${await listening}\n`);
//#endregion

//#region connections
// cluster hands out connections, not requests: a client that keeps one connection open talks to one worker only.
// This fetch opens a new connection for every request, as many clients behind a proxy do, and notes who answered.
const servedBy: string[] = [];
const freshConnections = (async (input: string | URL | Request, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  headers.set("connection", "close");
  const response = await fetch(input, { ...init, headers });
  const method = typeof init?.body === "string" ? (JSON.parse(init.body) as { method?: string }).method ?? "a response" : init?.method;
  servedBy.push(`${method} -> ${response.status} from ${response.headers.get("x-served-by")}`);
  return response;
}) as typeof fetch;

type Mode = NonNullable<ClientOptions["versionNegotiation"]>["mode"];
async function connect(mode: Mode, fetchWith: typeof fetch = freshConnections): Promise<Client> {
  const client = new Client({ name: "learn-mcp-26-demo", version: "0.1.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetchWith }));
  return client;
}
//#endregion

//#region burst
const modern = await connect({ pin: "2026-07-28" });
servedBy.length = 0;
const sums = await Promise.all(Array.from({ length: 8 }, (_, i) => modern.callTool({ name: "add", arguments: { a: i, b: 40 } })));
const answeredBy = servedBy.map((line) => line.split(" from ")[1]!);
const tally = [...new Set(answeredBy)].sort().map((worker) => `${worker}: ${answeredBy.filter((name) => name === worker).length}`);
const correct = sums.filter((result, i) => JSON.stringify(result.content) === JSON.stringify([{ type: "text", text: String(i + 40) }])).length;
console.log(`2026-07-28, 8 tools/call at once, each on its own connection: ${correct} of 8 correct (${tally.join(", ")})`);
//#endregion

//#region sessions
// The same setup breaks a 2025-era session: it lives in the memory of the worker that answered initialize.
servedBy.length = 0;
try {
  const legacy = await connect("legacy");
  await legacy.callTool({ name: "add", arguments: { a: 2, b: 40 } });
  console.log("2025 session: every request reached the same worker");
} catch (error) {
  console.log(`2025 session, each request on its own connection: ${(error as Error).message}`);
}
for (const line of servedBy) console.log(`  ${line}`);
//#endregion

//#region bus
// A listener's stream stays in the worker that holds its connection; a post must reach it from any worker.
const seen: string[] = [];
const listenerFetch = (async (input: string | URL | Request, init?: RequestInit) => {
  const response = await fetch(input, init);
  if (new Headers(init?.headers).get("mcp-method") === "subscriptions/listen") seen.push(response.headers.get("x-served-by")!);
  return response;
}) as typeof fetch;
const listener = await connect({ pin: "2026-07-28" }, listenerFetch);
const updated = new Promise<string>((resolve) => listener.setNotificationHandler("notifications/resources/updated", ({ params }) => resolve(params.uri)));
const subscription = await listener.listen({ resourceSubscriptions: ["board://messages"] });
console.log(`\nlistener: subscriptions/listen for board://messages, its stream held by ${seen[0]}`);

const poster = await connect({ pin: "2026-07-28" });
do {
  servedBy.length = 0;
  await poster.callTool({ name: "post_message", arguments: { text: "hello from another worker" } });
} while (servedBy[0]!.endsWith(seen[0]!)); // until the post lands on the other worker
console.log(`poster: post_message answered by ${servedBy[0]!.split(" from ")[1]}`);
console.log(`listener: notifications/resources/updated for ${await updated}`);
const board = await listener.readResource({ uri: "board://messages" });
console.log(`listener: board://messages now reads ${JSON.stringify(board.contents[0] && "text" in board.contents[0] ? board.contents[0].text : "")}`);
await subscription.close();
await Promise.all([modern.close(), listener.close(), poster.close()]);
//#endregion

//#region stop
// The primary logs each worker's pid: after it exits, none of them may still run.
const workers = stderr.flatMap((line) => /pid (\d+)/.exec(line)?.[1] ?? []).map(Number);
server.kill("SIGTERM");
const [code] = (await once(server, "exit")) as [number];
const left = workers.filter(isRunning);
console.log(`\nSIGTERM: the server exited with code ${code}; of its ${workers.length} workers, ${left.length === 0 ? "none is left" : `still running: ${left.join(", ")}`}`);
console.log(`the server's stderr:\n${stderr.map((line) => `  ${line.replace(/pid \d+/, "pid <pid>")}`).join("\n")}`);
if (code !== 0 || left.length > 0 || workers.length !== 2) process.exitCode = 1;
//#endregion
