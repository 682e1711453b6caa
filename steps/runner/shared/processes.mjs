// Processes as the runner and the scripts see them: the process tree from /proc, or from ps where there is no /proc
// (macOS), and stopping a tree or a process group. A tree is collected before the first signal: a killed parent's
// children are re-parented and lose their link to it.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** The variable that makes canReadProc() answer false on Linux too, so that the tests run the ps paths there. */
export const NO_PROC = "LEARN_MCP_NO_PROC";
export const canReadProc = () =>
  process.env[NO_PROC] !== "1" && process.platform === "linux" && existsSync("/proc/self/stat");

// The options are in procps and BSD ps alike (-A, -p, -ww for lines of any width, -o with "=" for no header), and
// GNU-only forms such as --ppid are not. One -o per column: BSD ps, like POSIX, reads all that follows a "=" as the
// header.
const ps = (args) => {
  try {
    return execFileSync("ps", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return ""; // ps -p exits 1 when no such process is left
  }
};
const psRows = (args) =>
  ps(args)
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

const readProc = (pid, file) => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined; // gone, or another user's
  }
};

/** The pids alive now (zombies included). */
export const snapshotPids = () =>
  new Set(
    canReadProc()
      ? readdirSync("/proc")
          .filter((name) => /^\d+$/.test(name))
          .map(Number)
      : psRows(["-A", "-o", "pid="]).map(Number),
  );

// Field 2 of /proc/<pid>/stat is the command name in parentheses and may itself contain ") ", so fields are read after
// the last ")".
/**
 * /proc/<pid>/stat (Linux only) as `{ name, fields }`: the command name (field 2) and the fields from field 3, the
 * state, on, so that field N of proc(5) is `fields[N - 3]`; undefined once the process is gone.
 */
export function procStat(pid) {
  const text = readProc(pid, "stat");
  if (text === undefined) return undefined;
  const end = text.lastIndexOf(")");
  return { name: text.slice(text.indexOf("(") + 1, end), fields: text.slice(end + 2).split(" ") };
}

/** `{ state, ppid, pgrp }` of a process, or undefined once it is gone. `state` is one letter: Z for a zombie. */
export function readStat(pid) {
  if (!canReadProc()) {
    const [state, ppid, pgrp] = (
      psRows(["-o", "stat=", "-o", "ppid=", "-o", "pgid=", "-p", String(pid)])[0] ?? ""
    ).split(/\s+/);
    return pgrp === undefined ? undefined : { state: state[0], ppid: Number(ppid), pgrp: Number(pgrp) };
  }
  const [state, ppid, pgrp] = procStat(pid)?.fields ?? [];
  return state === undefined ? undefined : { state, ppid: Number(ppid), pgrp: Number(pgrp) };
}

/** pid -> `{ state, ppid, pgrp }` for every process we can see, read at once. */
function statsByPid() {
  if (canReadProc())
    return new Map([...snapshotPids()].map((pid) => [pid, readStat(pid)]).filter(([, stat]) => stat !== undefined));
  return new Map(
    psRows(["-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid=", "-o", "stat="]).map((line) => {
      const [pid, ppid, pgrp, state] = line.split(/\s+/);
      return [Number(pid), { state: state[0], ppid: Number(ppid), pgrp: Number(pgrp) }];
    }),
  );
}

/** A shell-like rendering of a process's command line (ps's own rendering without /proc). */
export const commandLine = (pid) =>
  canReadProc()
    ? (readProc(pid, "cmdline") ?? "").split("\0").filter(Boolean).join(" ")
    : ps(["-ww", "-o", "args=", "-p", String(pid)]).trim();

/**
 * The process's environment as "NAME=value" strings; empty when it cannot be read, and without /proc (ps has no
 * portable way).
 */
export const environment = (pid) => (canReadProc() ? (readProc(pid, "environ") ?? "").split("\0").filter(Boolean) : []);

/** `root` followed by all of its descendants, parents before children. */
export function processTree(root) {
  const children = new Map();
  for (const [pid, { ppid }] of statsByPid()) {
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
  return readStat(pid)?.state !== "Z";
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
 * collect it, which here can take seconds. Signal 0 answers first: an empty group, zombies included, needs no listing.
 */
function groupRuns(pgid) {
  if (!signalGroup(pgid, 0)) return false;
  return [...statsByPid().values()].some((stat) => stat.pgrp === pgid && stat.state !== "Z");
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
