// What is left of a set of process groups, read from /proc: the demo's proof that closing left nothing behind.
import { readdirSync, readFileSync } from "node:fs";

/** The pids still alive (zombies count as gone) whose process group is one of `groups`. Linux only. */
export function leftInGroups(groups: number[]): number[] {
  return readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return false; // gone since the listing
    }
    // Fields after the command name, which may itself hold ") ": state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return state !== "Z" && groups.includes(Number(pgrp));
  });
}
