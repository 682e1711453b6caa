// How long a learner waits for each demo, as multiples of a bare tsx start measured in the same docs:sync run: the
// machine is shared and noisy, so an absolute time would say more about its load than about the demo.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// A demo's own first byte within 2 bare starts (at least 1 s), its end within 6 (at least 3 s).
export const TARGETS = { firstByte: { starts: 2, floorMs: 1000 }, end: { starts: 6, floorMs: 3000 } };
const BARE_RUNS = 3;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (value) => Math.round(value * 10) / 10;

function timeStart(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { stdio: "ignore" });
    child.on("error", reject);
    child.on("close", (status) =>
      status === 0 ? resolve(performance.now() - started) : reject(new Error(`bare start exited ${status}`)),
    );
  });
}

/** The median wall time, in ms, of starting an empty TypeScript file under `node --import tsx`, run one at a time. */
export async function measureBareStart() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "docs-bare-start-"));
  try {
    const file = path.join(dir, "bare.ts");
    writeFileSync(file, "export {};\n");
    const args = ["--import", import.meta.resolve("tsx"), file];
    const times = [];
    for (let i = 0; i < BARE_RUNS; i++) times.push(await timeStart(args));
    return median(times);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A demo's times as the record keeps them: multiples of the bare start, and the bare start itself in ms. */
export const asMultiples = ({ firstByteMs, elapsedMs }, bareMs) => ({
  firstByte: round(firstByteMs / bareMs),
  end: round(elapsedMs / bareMs),
  bareMs: Math.round(bareMs),
});

/** What a recorded timing misses of the targets, as short phrases; empty when it meets both. */
export function missedTargets(timing) {
  const missed = [];
  for (const [name, label] of [
    ["firstByte", "first byte"],
    ["end", "end"],
  ]) {
    const { starts, floorMs } = TARGETS[name];
    const allowed = Math.max(starts, floorMs / timing.bareMs);
    if (timing[name] > allowed) missed.push(`${label} at ${timing[name]}x a bare start (target ${round(allowed)}x)`);
  }
  return missed;
}
