// Demo: the server as two worker processes behind node's cluster module. A burst of 2026-07-28 requests, each
// on a connection of its own, lands on both workers and every one succeeds; a 2025-era session breaks as soon as a
// request reaches the other worker.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { leftInGroups } from "./groups.ts";

//#region start
const program = fileURLToPath(new URL("./server.ts", import.meta.url));
const server = spawn(
  process.execPath,
  ["--import", import.meta.resolve("tsx"), program, "--port", "0", "--workers", "2"],
  { stdio: ["ignore", "ignore", "pipe"], detached: true },
);
process.once("exit", () => server.kill()); // even if the demo fails: a server it started must not outlive it
const stderr: string[] = [];
const listening = new Promise<string>((resolve, reject) => {
  createInterface({ input: server.stderr }).on("line", (line) =>
    line.startsWith("listening on ") ? resolve(line) : stderr.push(line),
  );
  server.on("exit", (code) => reject(new Error(`the server exited with code ${code}`)));
});
console.log("$ server.ts --port 0 --workers 2"); // before the workers start: they take a second
const url = (await listening).replace("listening on ", "");
console.log(`listening on ${url}\n`);
//#endregion

//#region connections
// cluster hands out connections, not requests. This fetch notes who answered; with `closeEach` it closes each
// connection after its request, as clients behind some proxies do, so the next request needs a new one, maybe to
// another worker.
const servedBy: string[] = [];
const recording = (closeEach: boolean) =>
  (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (closeEach) headers.set("connection", "close");
    const response = await fetch(input, { ...init, headers });
    const method =
      typeof init?.body === "string"
        ? ((JSON.parse(init.body) as { method?: string }).method ?? "a response")
        : init?.method;
    servedBy.push(`${method} -> ${response.status} from ${response.headers.get("x-served-by")}`);
    return response;
  }) as typeof fetch;
const worker = (line: string) => line.split(" from ")[1]!;
// which is first varies
const relative = (name: string, first: string) => (name === first ? "one worker" : "the other worker");

async function connect(
  mode: NonNullable<ClientOptions["versionNegotiation"]>["mode"],
  closeEach: boolean,
): Promise<Client> {
  const client = new Client({ name: "learn-mcp-demo", version: "0.1.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording(closeEach) }));
  return client;
}
//#endregion

//#region burst
const modern = await connect({ pin: "2026-07-28" }, true);
servedBy.length = 0;
const sums = await Promise.all(
  Array.from({ length: 8 }, (_, i) => modern.callTool({ name: "add", arguments: { a: i, b: 40 } })),
);
const answeredBy = [...new Set(servedBy.map(worker))].sort(); // how many each one answers varies from run to run
const correct = sums.filter(
  (result, i) => JSON.stringify(result.content) === JSON.stringify([{ type: "text", text: String(i + 40) }]),
).length;
console.log(
  `2026-07-28, 8 tools/call at once, each on its own connection: ${correct} of 8 correct, ` +
    `answered by ${answeredBy.length === 2 ? "both workers" : answeredBy.join(", ")}`,
);
await modern.close();
//#endregion

//#region sessions
// A 2025-era session lives in the memory of the worker that answered initialize. The SDK client keeps connections
// alive, but sends notifications/initialized before initialize's answer stream has ended: on a new connection, maybe
// elsewhere.
servedBy.length = 0;
try {
  const legacy = await connect("legacy", false);
  await legacy.callTool({ name: "add", arguments: { a: 2, b: 40 } });
  console.log("2025 session: every request reached the same worker");
} catch (error) {
  console.log(`2025 session, the SDK client as it comes: ${(error as Error).message}`);
}
for (const line of servedBy)
  console.log(`  ${line.replace(/ from .*$/, ` from ${relative(worker(line), worker(servedBy[0]!))}`)}`);
//#endregion

//#region stop
// The primary logs each worker's pid. Started detached, it leads a process group that its workers join: once it exits,
// that group must be empty.
const workers = stderr.flatMap((line) => /is pid (\d+)/.exec(line)?.[1] ?? []).map(Number);
server.kill("SIGTERM");
const [code] = (await once(server, "exit")) as [number];
const left = await leftInGroups([server.pid!]);
console.log(
  `\nSIGTERM: the server exited with code ${code}; of its ${workers.length} workers, ` +
    `${left.length === 0 ? "none is left" : `still running: ${left.join(", ")}`}`,
);
console.log(`the server's stderr:\n${stderr.map((line) => `  ${line.replace(/pid \d+/, "pid <pid>")}`).join("\n")}`);
if (code !== 0 || left.length > 0 || workers.length !== 2) process.exitCode = 1;
//#endregion
