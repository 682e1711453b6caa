// `pnpm bench --http`: the HTTP rows side by side, in rounds that rotate, as main.ts does for the stdio pairs.
// A row that fails is recorded and the run goes on; every process a row started must be gone before the next one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Driver } from "./channel.ts";
import { HTTP_ROWS, WRONG_ROW, type HttpRow } from "./http-rows.ts";
import { cpuMicros, machine } from "./measure.ts";
import { stillRunning, type Proc } from "./processes.ts";
import { httpProblems, renderHttp } from "./render-http.mjs";

//#region settings
// /proc counts CPU in 10 ms ticks: 3 s with 64 calls in flight, or 5000 calls one at a time (1.5 s or more here),
// give each busy process a hundred ticks or more.
const FULL = { latencyCalls: 5000, inflight: 64, minCalls: 3000, minMs: 3000, warmCalls: 2000 };
// Four in flight open four connections, so every worker of the 4-worker row is reached even in a smoke run.
const SMOKE = { latencyCalls: 3, inflight: 4, minCalls: 8, minMs: 0, warmCalls: 0 };
//#endregion

type Settings = typeof FULL & { profile?: string };

export interface HttpOptions {
  rounds: number;
  smoke: boolean;
  json?: string;
  pairs?: string;
  label: string;
  /**
   * A folder for the servers' CPU profiles (`node --cpu-prof`); the figures of such a run include the profiler's cost.
   */
  profile?: string;
}

const driverFile = fileURLToPath(new URL("./http-driver.ts", import.meta.url));
const serverCpu = (procs: Proc[]) => procs.reduce((sum, proc) => sum + cpuMicros(proc.pid), 0);

//#region round
/** Warm-up, one call in flight, then 64, with the CPU of the client and of every server process read around it. */
async function phases(driver: Driver, row: HttpRow, settings: Settings, procs: Proc[]) {
  const { pid, servers } = await driver.ask({ op: "start", row: row.id, profile: settings.profile });
  procs.push(...servers);
  if (settings.warmCalls > 0) {
    await driver.ask({ op: "throughput", inflight: settings.inflight, minCalls: settings.warmCalls, minMs: 0 });
    await driver.ask({ op: "latency", calls: settings.warmCalls / 2 });
  }
  // CPU is read around both measured phases: with one call in flight nothing overlaps, so it shows where a call's time
  // goes.
  const cpu = () => [cpuMicros(pid), serverCpu(procs)] as const;
  const beforeOne = cpu();
  const { p50Us, p99Us } = await driver.ask({ op: "latency", calls: settings.latencyCalls });
  const [afterOne, before] = [cpu(), cpu()];
  const { calls, ms, answered, servedBy } = await driver.ask({ op: "throughput", ...settings });
  const after = cpu();
  const perCall = (micros: number, count: number) => (count > 0 ? micros / count : null);
  const one = settings.latencyCalls;
  return {
    p50Us,
    p99Us,
    oneClientCpuUs: perCall(afterOne[0] - beforeOne[0], one),
    oneServerCpuUs: perCall(afterOne[1] - beforeOne[1], one),
    callsPerSec: (calls * 1000) / ms,
    clientCpuUs: perCall(after[0] - before[0], calls),
    serverCpuUs: perCall(after[1] - before[1], calls),
    answered,
    servedBy,
  };
}

/**
 * One row with a fresh server; whatever happens it is stopped, and a process still there 5 s later is killed and named.
 */
async function measure(row: HttpRow, driver: Driver, settings: Settings) {
  const procs: Proc[] = [];
  const load = Number(os.loadavg()[0].toFixed(2)); // the neighbours' share of the machine as this row began
  const result = await phases(driver, row, settings, procs).catch((error: Error) => ({
    error: error.message.slice(0, 300),
  }));
  await driver.ask({ op: "stop" }).catch(() => undefined);
  for (let waited = 0; waited < 5000 && stillRunning(procs).length > 0; waited += 50) await sleep(50);
  const leftovers = stillRunning(procs).map((proc) => proc.pid);
  leftovers.forEach((pid) => process.kill(pid, "SIGKILL"));
  return { load, ...result, processes: procs, leftovers };
}

/** A full run gives each row a fresh client process; a smoke run keeps one for every row, to spend less CPU. */
async function runRow(row: HttpRow, folder: string, settings: Settings, shared: Driver | undefined) {
  const driver = shared ?? (await Driver.start(row.label, [driverFile, folder]));
  try {
    return await measure(row, driver, settings);
  } finally {
    if (!shared) await driver.close();
  }
}
//#endregion

//#region main
export async function benchHttp(options: HttpOptions): Promise<void> {
  const profile = options.profile === undefined ? undefined : path.resolve(options.profile);
  const settings: Settings = { ...(options.smoke ? SMOKE : FULL), ...(profile && { profile }) };
  const known = [...HTTP_ROWS, WRONG_ROW];
  const rows =
    options.pairs?.split(",").map((id) => known.find((row) => row.id === id) ?? fail(`unknown HTTP row ${id}`)) ??
    HTTP_ROWS;
  const folder = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-bench-http-"));
  process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  const results = {
    label: options.label,
    machine: machine(),
    settings: { ...settings, rounds: options.rounds, smoke: options.smoke },
    rows: rows.map(({ id, label, via }) => ({ id, label, via, rounds: [] as object[] })),
  };
  const shared = options.smoke ? await Driver.start("HTTP rows", [driverFile, folder]) : undefined;
  for (let round = 0; round < options.rounds; round++) {
    // Rotate the order each round: no row always runs first, right after the previous round's teardown.
    for (let i = 0; i < rows.length; i++) {
      const index = (i + round) % rows.length;
      if (!options.smoke) process.stderr.write(`round ${round + 1}/${options.rounds}: ${rows[index]!.label}\n`);
      results.rows[index]!.rounds[round] = await runRow(rows[index]!, folder, settings, shared);
    }
  }
  await shared?.close();
  Object.assign(results, { loadAtEnd: Number(os.loadavg()[0].toFixed(2)) });
  if (options.json) writeFileSync(options.json, JSON.stringify(results, null, 2) + "\n");
  console.log(renderHttp(results));
  process.exitCode = httpProblems(results).length > 0 ? 1 : 0;
}
//#endregion

function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(2);
}
