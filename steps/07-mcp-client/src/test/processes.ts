// Test helper: whether a process still runs. A zombie has exited and only waits to be reaped, so it counts as gone.
import { readFileSync } from "node:fs";

export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
