// `node --import tsx scripts/bench/fetch-vs-http.mjs`: why the HTTP rows use node's http module, not fetch. Both call
// the floor with 64 in flight, in turn, twice; the client's CPU per call comes from /proc, as in the bench. No MCP
// involved.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { canReadProc } from "../../steps/runner/shared/processes.mjs";
import { cpuMicros } from "./measure.ts";

if (!canReadProc()) {
  console.log("fetch-vs-http: skipped: it reads the client's CPU time from /proc, which needs Linux");
  process.exit(0);
}

const floor = fileURLToPath(new URL("./http-floor.ts", import.meta.url));
const server = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), floor], {
  stdio: ["ignore", "ignore", "pipe"],
});
const url = await new Promise((resolve) => {
  createInterface({ input: server.stderr }).on(
    "line",
    (line) => line.startsWith("listening on ") && resolve(line.slice(13)),
  );
});
const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const body = (id) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 40 } } });
const textOf = (answer) => JSON.parse(answer).result.content[0].text;

//#region clients
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const viaHttp = (id) =>
  new Promise((resolve, reject) => {
    const sent = body(id);
    const outgoing = request(
      url,
      { agent, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(sent) } },
      (response) => {
        const chunks = [];
        response
          .on("data", (chunk) => chunks.push(chunk))
          .on("end", () => resolve(textOf(Buffer.concat(chunks).toString("utf8"))));
      },
    );
    outgoing.on("error", reject).end(sent);
  });
const viaFetch = async (id) => textOf(await (await fetch(url, { method: "POST", headers, body: body(id) })).text());
//#endregion

/** 64 callers for `ms` milliseconds; every answer must be 42. */
async function run(call, ms) {
  let calls = 0;
  const started = performance.now();
  const caller = async () => {
    while (performance.now() - started < ms) if ((await call(++calls)) !== "42") throw new Error("a wrong answer");
  };
  await Promise.all(Array.from({ length: 64 }, caller));
  return { calls, ms: performance.now() - started };
}

for (const [name, call] of [
  ["node:http + Agent", viaHttp],
  ["fetch", viaFetch],
  ["node:http + Agent", viaHttp],
  ["fetch", viaFetch],
]) {
  await run(call, 1000); // warm-up
  const before = [cpuMicros(process.pid), cpuMicros(server.pid)];
  const { calls, ms } = await run(call, 3000);
  const [client, floorCpu] = [cpuMicros(process.pid) - before[0], cpuMicros(server.pid) - before[1]];
  const perCall = (micros) => (micros / calls).toFixed(1);
  console.log(
    `${name.padEnd(17)}  ${String(Math.round((calls * 1000) / ms)).padStart(6)} ` +
      `calls/s  client ${perCall(client)} µs/call  floor ${perCall(floorCpu)} µs/call`,
  );
}
agent.destroy();
server.kill("SIGTERM");
await once(server, "exit");
