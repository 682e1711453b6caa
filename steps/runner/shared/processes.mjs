// Processes as the runner and the scripts see them: the /proc process tree, and stopping a tree or a process group.
// A tree is collected before the first signal: a killed parent's children are re-parented and lose their link to it.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export const canReadProc = () => process.platform === "linux" && existsSync("/proc/self/stat");

const readProc = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined; // gone, or another user's
  }
};

/** The pids alive now, from /proc. */
export const snapshotPids = () => new Set(readdirSync("/proc").filter((name) => /^\d+$/.test(name)).map(Number));

// Field 2 of /proc/<pid>/stat is the command name in parentheses and may itself contain ") ", so fields are read after the last ")".
/** `{ state, ppid, pgrp }` of a process, or undefined once it is gone. */
export function readStat(pid) {
  const text = readProc(pid, "stat");
  if (text === undefined) return undefined;
  const [state, ppid, pgrp] = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state, ppid: Number(ppid), pgrp: Number(pgrp) };
}

/** A shell-like rendering of a process's command line. */
export const commandLine = (pid) => (readProc(pid, "cmdline") ?? "").split("\0").filter(Boolean).join(" ");

/** The process's environment as "NAME=value" strings (empty when it cannot be read). */
export const environment = (pid) => (readProc(pid, "environ") ?? "").split("\0").filter(Boolean);

/** pid -> parent pid for every process we can see; ps where /proc is not mounted. */
function parentsByPid() {
  const parents = new Map();
  if (canReadProc()) {
    for (const pid of snapshotPids()) {
      const stat = readStat(pid);
      if (stat) parents.set(pid, stat.ppid);
    }
    return parents;
  }
  for (const line of execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).split("\n")) {
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
  return !canReadProc() || readStat(pid)?.state !== "Z";
}

/** Sends `signal` to the process group `pid` leads; false when there is no such group any more. */
export function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

// The group signal also reaches anything a group leader started after the tree was read.
function signalEach(pid, name) {
  signalGroup(pid, name);
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the whole tree, then SIGKILL to whatever is still running after `graceMs`. */
export async function killTree(root, graceMs = 2000) {
  const tree = processTree(root);
  for (const pid of tree) signalEach(pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (tree.some(isAlive) && Date.now() < deadline) await sleep(50);
  for (const pid of tree.filter(isAlive)) signalEach(pid, "SIGKILL");
}

/**
 * Whether any process of the group `pgid` still runs. A zombie does not: one whose parent died waits for init to
 * collect it, which here can take seconds. Without /proc, whether the group answers signal 0.
 */
function groupRuns(pgid) {
  if (!canReadProc()) return signalGroup(pgid, 0);
  return [...snapshotPids()].some((pid) => {
    const stat = readStat(pid);
    return stat !== undefined && stat.pgrp === pgid && stat.state !== "Z";
  });
}

/**
 * Stops what is left of the process group `pid` led once its leader is gone: whatever has not exited by itself within
 * `settleMs` (a child may still be finishing) gets SIGTERM, then SIGKILL after `graceMs`. False when nothing was left.
 */
export async function stopGroup(pid, settleMs = 1000, graceMs = 2000) {
  const emptyWithin = async (ms) => {
    const deadline = Date.now() + ms;
    while (groupRuns(pid) && Date.now() < deadline) await sleep(20);
    return !groupRuns(pid);
  };
  if (await emptyWithin(settleMs)) return false;
  signalGroup(pid, "SIGTERM");
  if (!(await emptyWithin(graceMs))) signalGroup(pid, "SIGKILL");
  return true;
}
