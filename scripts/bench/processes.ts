// A server as /proc sees it: the process the bench started and every process below it (a bridge's child, cluster
// workers). Each is named by pid and start time, so a pid the kernel hands out again is never taken for a leftover.
import { readlinkSync } from "node:fs";
import path from "node:path";
import { processTree, procStat } from "../../steps/runner/shared/processes.mjs";

export interface Proc {
  pid: number;
  /**
   * The executable's name: "node", or "esbuild" for the service tsx starts when it compiles a file it has not cached.
   */
  name: string;
  /** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks after boot. */
  start: string;
}

// The name in /proc/<pid>/stat is the main thread's, which Node 24 renames "MainThread": name the executable instead.
function executable(pid: number, fallback: string): string {
  try {
    return path.basename(readlinkSync(`/proc/${pid}/exe`));
  } catch {
    return fallback;
  }
}

/** The process as /proc/<pid>/stat shows it now, or undefined once it is gone or a zombie (it has exited). */
function readProc(pid: number): Proc | undefined {
  const stat = procStat(pid);
  if (stat === undefined || stat.fields[0] === "Z") return undefined;
  return { pid, name: stat.name, start: stat.fields[19]! }; // field 22
}

/** `root` and its descendants that are running now. */
export function serverProcesses(root: number): Proc[] {
  return processTree(root).flatMap((pid: number) => {
    const proc = readProc(pid);
    return proc ? [{ pid, name: executable(pid, proc.name), start: proc.start }] : [];
  });
}

/** Those of `procs` that still run: same pid, same start time, not a zombie. */
export function stillRunning(procs: Proc[]): Proc[] {
  return procs.filter((proc) => readProc(proc.pid)?.start === proc.start);
}
