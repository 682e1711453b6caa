// Test helper: processes as `ps` lists them (Linux and macOS), to find what a host started and prove it is gone.
import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

interface Row {
  pid: number;
  ppid: number;
  pgid: number;
  zombie: boolean;
}

function rows(): Row[] {
  const out = execFileSync("ps", ["-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid=", "-o", "stat="], {
    encoding: "utf8",
  });
  return out
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .map(([pid, ppid, pgid, stat]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      zombie: stat!.startsWith("Z"),
    }));
}

/** The process groups of `pid` and of every process below it, but not the group `pid` is in and does not lead (a
 * test's own, for a child it did not detach). */
export function groupsBelow(pid: number): number[] {
  const all = rows();
  const own = all.find((row) => row.pid === pid)?.pgid;
  const found = new Set([pid]);
  for (let size = 0; size !== found.size;) {
    size = found.size;
    for (const row of all) if (found.has(row.ppid)) found.add(row.pid);
  }
  const groups = new Set(all.filter((row) => found.has(row.pid)).map((row) => row.pgid));
  if (own !== pid) groups.delete(own!);
  return [...groups];
}

/** The live (not zombie) pids in `groups`, after waiting up to `ms` for them to go. */
export async function leftAfter(groups: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = rows()
      .filter((row) => groups.includes(row.pgid) && !row.zombie)
      .map((row) => row.pid);
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(50);
  }
}
