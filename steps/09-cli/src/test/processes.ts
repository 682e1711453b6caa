// Test helper: whether a process still runs, from ps as Linux and macOS both have it. A zombie (state Z) has exited
// and only waits to be reaped, so it counts as gone.
import { execFileSync } from "node:child_process";

export function isRunning(pid: number): boolean {
  try {
    return !execFileSync("ps", ["-o", "stat=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .trim()
      .startsWith("Z");
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}
