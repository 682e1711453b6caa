// Whether a process still runs, read from /proc (Linux). A zombie has exited and only waits to be reaped: gone.
import { readFileSync } from "node:fs";

export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
