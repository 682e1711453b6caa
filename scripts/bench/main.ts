// `pnpm bench [--rounds N] [--smoke] [--json out.json] [--pairs id,id] [--label text]`: every pair, side by side;
// with `--http [--profile dir]`, the HTTP rows instead (http-main.ts).
// Rounds interleave the pairs, so a noisy minute on the shared machine hits every pair alike.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Driver } from "./channel.ts";
import { benchHttp } from "./http-main.ts";
import { cpuMicros, machine, median } from "./measure.ts";
import { NAIVE_PAIR, PAIRS, type Pair } from "./pairs.ts";
import { integrityProblems, render } from "./render.mjs";
import { canReadProc } from "../../steps/runner/shared/processes.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    smoke: { type: "boolean", default: false },
    json: { type: "string" },
    pairs: { type: "string" },
    label: { type: "string", default: "" },
    http: { type: "boolean", default: false },
    profile: { type: "string" },
  },
});

// CPU per process, the bench's figure, comes from /proc; ps rounds it to the second, too coarse to compare with.
if (!canReadProc()) {
  console.log("bench: skipped: it reads each process's CPU time from /proc, which needs Linux");
  process.exit(0);
}

//#region settings
// Long enough for /proc's 10 ms CPU tick: 2 s of 64 calls in flight per pair and round is 100+ ticks per process.
const FULL = {
  latencyCalls: 5000,
  inflight: 64,
  minCalls: 20_000,
  minMs: 2000,
  bigCalls: 3,
  bigBytes: 10_000_000,
  warmCalls: 5000,
};
// 1 MB still crosses a pipe in about sixteen 64 KiB chunks, which is where a careless decoder breaks a character.
const SMOKE = { latencyCalls: 5, inflight: 1, minCalls: 0, minMs: 0, bigCalls: 1, bigBytes: 1_000_000, warmCalls: 0 };
const settings = values.smoke ? SMOKE : FULL;
const rounds = values.smoke ? 1 : Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) fail(`--rounds must be a whole number above 0, not ${values.rounds}`);
const known = [...PAIRS, NAIVE_PAIR];
// With --http, --pairs names HTTP rows, which http-main.ts looks up.
const pairs = values.http
  ? []
  : (values.pairs?.split(",").map((id) => known.find((pair) => pair.id === id) ?? fail(`unknown pair ${id}`)) ?? PAIRS);
//#endregion

function fail(message: string): never {
  console.error(`bench: ${message}`);
  process.exit(2);
}

//#region round
// The 10 MB call goes first: V8 drops the small-call path's optimised code after it (deopts), and the
// thousands of small calls that follow compile it again before anything is timed.
async function warmUp(driver: Driver) {
  await driver.ask({ op: "big", calls: 1, bytes: settings.bigBytes });
  await driver.ask({ op: "throughput", inflight: settings.inflight, minCalls: settings.warmCalls, minMs: 0 });
  await driver.ask({ op: "latency", calls: settings.warmCalls });
}

/** One fresh client and server: cold start, warm-up, then each measured phase in turn. */
async function measure(pair: Pair, folder: string) {
  const driver = await Driver.spawn(pair, folder);
  try {
    const { coldMs, pid, serverPid } = await driver.ask({ op: "start" });
    if (settings.warmCalls > 0) await warmUp(driver);
    const { p50Us, p99Us } = await driver.ask({ op: "latency", calls: settings.latencyCalls });
    const before = [cpuMicros(pid), cpuMicros(serverPid)];
    const { calls, ms } = await driver.ask({ op: "throughput", ...settings });
    const [clientCpu, serverCpu] = [cpuMicros(pid) - before[0], cpuMicros(serverPid) - before[1]];
    const big = await driver.ask({ op: "big", calls: settings.bigCalls, bytes: settings.bigBytes });
    const perCall = (micros: number) => (calls > 0 ? micros / calls : null);
    return {
      coldMs,
      p50Us,
      p99Us,
      callsPerSec: calls > 0 ? (calls * 1000) / ms : null,
      clientCpuUs: perCall(clientCpu),
      serverCpuUs: perCall(serverCpu),
      bigMs: big.ms.length > 0 ? median(big.ms) : null,
      bigCalls: settings.bigCalls,
      corrupted: big.corrupted,
      replaced: big.replaced,
      failed: big.failed,
      ...(big.error && { error: big.error }),
    };
  } finally {
    await driver.close();
  }
}
//#endregion

//#region main
async function main() {
  const folder = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-bench-"));
  process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
  const results = {
    label: values.label,
    machine: machine(),
    settings: { ...settings, rounds, smoke: values.smoke },
    pairs: pairs.map((pair) => ({ ...pair, rounds: [] as object[] })),
  };
  for (let round = 0; round < rounds; round++) {
    // Rotate the order each round: no pair always runs first, right after the previous round's teardown.
    for (let i = 0; i < pairs.length; i++) {
      const index = (i + round) % pairs.length;
      if (!values.smoke) process.stderr.write(`round ${round + 1}/${rounds}: ${pairs[index].label}\n`);
      results.pairs[index].rounds[round] = await measure(pairs[index], folder);
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2) + "\n");
  console.log(render(results));
  process.exitCode = integrityProblems(results).length > 0 ? 1 : 0;
}
//#endregion

await (values.http ? benchHttp({ ...values, rounds }) : main());
