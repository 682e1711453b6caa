// Stops a process and every process below it, even those that moved to their own process group or session.
// The whole tree is collected before the first signal: a killed parent's children are re-parented and lose their link to us.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** pid -> parent pid for every process we can see. */
function parentsByPid() {
  if (process.platform === "linux") {
    try {
      return parentsFromProc();
    } catch {
      // /proc not mounted (some containers): ps below still works.
    }
  }
  return parentsFromPs();
}

function parentsFromProc() {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(entry);
    if (stat) parents.set(Number(entry), stat.ppid);
  }
  return parents;
}

// Field 2 of /proc/<pid>/stat is the command name in parentheses and may itself contain ") ", so fields are read after the last ")".
function readStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [state, ppid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined; // It exited while we were looking.
  }
}

function parentsFromPs() {
  const parents = new Map();
  const output = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" });
  for (const line of output.split("\n")) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid > 0) parents.set(pid, ppid);
  }
  return parents;
}

/** `root` followed by all of its descendants, parents before children. */
export function processTree(root) {
  const children = new Map();
  for (const [pid, ppid] of parentsByPid()) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** A zombie has exited and only waits for its parent to collect it, so it counts as gone. */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return error.code === "EPERM";
  }
  return process.platform !== "linux" || readStat(pid)?.state !== "Z";
}

// The group signal also reaches anything a group leader started after the tree was read.
function signal(pid, name) {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, name);
    } catch {
      // No such group (pid leads none) or the process is already gone.
    }
  }
}

/** SIGTERM to the whole tree, then SIGKILL to whatever is still running after `graceMs`. */
export async function killTree(root, graceMs = 2000) {
  const tree = processTree(root);
  for (const pid of tree) signal(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (tree.some(isAlive) && Date.now() < deadline) await sleep(50);
  for (const pid of tree.filter(isAlive)) signal(pid, "SIGKILL");
}
