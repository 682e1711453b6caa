// The bench's measuring tools: CPU time from /proc, percentiles, and the 10 MB text with its fingerprint.
// CPU comes from the kernel's own per-process counters, because wall clock swings with the neighbours' load.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import os from "node:os";
import { procStat } from "../../steps/runner/shared/processes.mjs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ), usually 100. */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User plus system CPU time a process has used so far, in microseconds (all its threads, GC included). */
export function cpuMicros(pid: number): number {
  const fields = procStat(pid)?.fields;
  if (fields === undefined) throw new Error(`process ${pid} is gone: it has no CPU time to read`);
  // From the state, field 3: utime is field 14, stime field 15.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

/** Nearest-rank percentile of values sorted ascending: p = 0.99 is the value 99 % of samples do not exceed. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

//#region big-text
export const BIG_TEXT_BYTES = 10_000_000;
// 1-, 2-, 3- and 4-byte UTF-8 characters, none of which JSON escapes: the envelope stays ~100 bytes,
// well under the SDK's 10 MiB (10,485,760-byte) message cap.
const UNIT = "MCP 模型上下文协议 stdio 分帧与内存分配 Grüße 𝄞 0123456789 ";

/** A text whose UTF-8 encoding is exactly `bytes` long, padded with ASCII at the end. */
export function bigText(bytes = BIG_TEXT_BYTES): string {
  const unitBytes = Buffer.byteLength(UNIT, "utf8");
  const body = UNIT.repeat(Math.floor(bytes / unitBytes));
  return body + ".".repeat(bytes - Buffer.byteLength(body, "utf8"));
}
//#endregion

export const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The machine a run was taken on, and its load when the run began: the first line of every table. */
export function machine() {
  const cpuinfo = os.cpus();
  return {
    cpu: cpuinfo[0]?.model.trim() ?? "unknown",
    cores: os.availableParallelism(),
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    clockTicks: CLOCK_TICKS,
    date: new Date().toISOString().slice(0, 10),
    loadAverage: Number(os.loadavg()[0].toFixed(2)),
  };
}
