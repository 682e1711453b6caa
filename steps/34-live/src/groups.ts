// What is left of a set of process groups, read with ps as Linux and macOS both have it: the proof that nothing
// outlives a demo. One -o per column: BSD ps, like POSIX, reads all that follows a "=" as the column's header.
import { execFileSync } from "node:child_process";

/**
 * The pids still running in `groups` (a zombie, state Z, has exited), asked again for up to `waitMs` while any is: it
 * may be exiting.
 */
export async function leftInGroups(groups: number[], waitMs = 3000): Promise<number[]> {
  const rows = execFileSync("ps", ["-A", "-o", "pid=", "-o", "pgid=", "-o", "stat="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((row) => row.trim().split(/\s+/));
  const left = rows
    .filter(([, pgid, stat]) => groups.includes(Number(pgid)) && !stat!.startsWith("Z"))
    .map(([pid]) => Number(pid));
  return left.length === 0 || waitMs <= 0
    ? left
    : new Promise((resolve) => setTimeout(() => resolve(leftInGroups(groups, waitMs - 50)), 50));
}
