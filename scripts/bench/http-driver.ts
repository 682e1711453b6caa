// The HTTP rows' client in its own process, run as `http-driver.ts <folder>` with an IPC channel, so that /proc shows
// the client's CPU apart from the bench's. For each row it is sent, it starts the server, calls `add`, and stops it.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { HttpClient, type AddClient } from "./http-client.ts";
import { HTTP_ROWS, WRONG_ROW } from "./http-rows.ts";
import { percentile } from "./measure.ts";
import { PipeClient } from "./pipe-client.ts";
import { serverProcesses } from "./processes.ts";

const [folder] = process.argv.slice(2) as [string];
let server: ChildProcess | undefined;
let client: AddClient | undefined;
let answered = 0;

//#region start
/**
 * Starts an HTTP server and resolves with the URL it prints; its other stderr lines are kept for a failure's message.
 */
async function listen(command: string[]): Promise<string> {
  server = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
  const said: string[] = [];
  return new Promise((resolve, reject) => {
    createInterface({ input: server!.stderr! }).on("line", (line) => {
      if (line.startsWith("listening on ")) resolve(line.slice("listening on ".length));
      else said.push(line);
    });
    server!.on("exit", (code, signal) =>
      reject(new Error(`the server exited (${signal ?? code}): ${said.slice(-5).join(" | ")}`)),
    );
  });
}

/** Starts the row's server; with `profile`, every server process writes a V8 CPU profile there when it exits. */
async function start({ row: id, profile }: { row: string; profile?: string }) {
  const row = [...HTTP_ROWS, WRONG_ROW].find((candidate) => candidate.id === id)!;
  const flags = profile === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profile}`];
  answered = 0;
  if (row.via === "pipe") {
    const pipe = new PipeClient(row.command(folder, flags));
    client = pipe;
    await pipe.open();
    return { pid: process.pid, servers: serverProcesses(pipe.pid) };
  }
  client = new HttpClient(await listen(row.command(folder, flags)), row.via);
  await client.open(); // the bridge starts its child here, so the tree is read after it
  return { pid: process.pid, servers: serverProcesses(server!.pid!) };
}
//#endregion

//#region calls
// Arguments change with every call and always add up to 42, so every answer is checked and none can be cached.
async function add(): Promise<void> {
  const a = answered % 1000;
  const text = await client!.add(a, 42 - a);
  if (text !== "42") throw new Error(`add(${a}, ${42 - a}) answered ${JSON.stringify(text)}, not "42"`);
  answered++;
}

/** Calls with one in flight: each round trip's time, in microseconds. */
async function latency({ calls }: { calls: number }) {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await add();
    samples.push((performance.now() - started) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50Us: percentile(samples, 0.5), p99Us: percentile(samples, 0.99), answered };
}

/** `inflight` callers, each starting its next call when its last one is answered, until both minimums are met. */
async function throughput({ inflight, minCalls, minMs }: { inflight: number; minCalls: number; minMs: number }) {
  let calls = 0;
  const servedBefore = { ...(client instanceof HttpClient ? client.servedBy : {}) };
  const started = performance.now();
  const caller = async () => {
    while (calls < minCalls || performance.now() - started < minMs) {
      await add();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inflight }, caller));
  const ms = performance.now() - started;
  const servedBy = Object.entries(client instanceof HttpClient ? client.servedBy : {}).map(([name, count]) => [
    name,
    count - (servedBefore[name] ?? 0),
  ]);
  return { calls, ms, answered, servedBy: Object.fromEntries(servedBy.sort()) };
}
//#endregion

//#region stop
/** Closes the client, then SIGTERM to the server, and SIGKILL if it has not gone within 10 s. */
async function stop(): Promise<object> {
  const [stopping, stopped] = [server, client];
  [server, client] = [undefined, undefined];
  await stopped?.close().catch(() => undefined);
  if (stopping === undefined || stopping.exitCode !== null || stopping.signalCode !== null) return {};
  const exited = once(stopping, "exit");
  stopping.kill("SIGTERM");
  const timer = setTimeout(() => stopping.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
  return {};
}
//#endregion

//#region serve
const commands: Record<string, (command: never) => Promise<object>> = { start, latency, throughput, stop };

// Commands come one at a time and each gets exactly one answer, a failure included.
process.on("message", async (command: { op: string }) => {
  if (command.op === "close") {
    await stop();
    process.disconnect();
    return;
  }
  try {
    process.send!({ ok: true, ...(await commands[command.op]!(command as never)) });
  } catch (error) {
    process.send!({ ok: false, error: (error as Error).message });
  }
});
// The bench went away without saying goodbye: still stop the server.
process.on("disconnect", () => void stop().catch(() => undefined));
process.send!({ ok: true, ready: true });
//#endregion
