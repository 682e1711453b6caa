// Programs the scripts run, each the leader of a process group of its own, with its output collected: one signal to
// the group stops the program and all it started, on a timeout or on Ctrl-C, which a group of its own does not get.
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { signalGroup } from "../../steps/runner/shared/processes.mjs";

const running = new Set();

/**
 * Starts `command` as the leader of a new process group, stdin closed, stdout and stderr piped.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv }} [options]
 */
export const spawnInGroup = (command, args, { cwd, env = process.env } = {}) =>
  spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });

/** SIGKILL to the group of every run still going: on Ctrl-C, and before exiting. */
export function killRunning() {
  for (const pid of running) signalGroup(pid, "SIGKILL");
}

/**
 * Passes `signal` on to the group of every run still going, so that each program stops what it started its own way
 * (the runner stops a demo's servers, which sit in groups of their own); SIGKILL to any group left after `graceMs`.
 */
export async function stopRunning(signal, graceMs = 2000) {
  const groups = [...running];
  for (const pid of groups) signalGroup(pid, signal);
  const deadline = Date.now() + graceMs;
  while (groups.some((pid) => signalGroup(pid, 0)) && Date.now() < deadline) await sleep(50);
  for (const pid of groups) signalGroup(pid, "SIGKILL");
}

/**
 * Runs `command` in a process group of its own and resolves once it closes, whatever its status, with `{ pid, status,
 * stdout, stderr, output, timedOut, firstByteMs, elapsedMs }`: status is the exit code or the signal that ended it,
 * output both streams as they came. Past `timeoutMs` the group gets SIGKILL; with `interruptMs`, the leader first gets
 * SIGINT (to stop what it started its own way) and the group SIGKILL that long after. Rejects if it cannot start.
 */
export function runInGroup(command, args, { cwd, env, timeoutMs, interruptMs }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnInGroup(command, args, { cwd, env });
    const out = { pid: child.pid, stdout: "", stderr: "", output: "", timedOut: false, firstByteMs: undefined };
    if (child.pid !== undefined) running.add(child.pid);
    for (const stream of ["stdout", "stderr"]) {
      // Decode per stream, not per chunk: a UTF-8 character may be split across two chunks.
      child[stream].setEncoding("utf8").on("data", (text) => {
        out.firstByteMs ??= performance.now() - started;
        out[stream] += text;
        out.output += text;
      });
    }
    let kill;
    const timer = setTimeout(() => {
      out.timedOut = true;
      if (interruptMs === undefined) return signalGroup(child.pid, "SIGKILL");
      child.kill("SIGINT");
      kill = setTimeout(() => signalGroup(child.pid, "SIGKILL"), interruptMs);
    }, timeoutMs);
    const settle = () => (clearTimeout(timer), clearTimeout(kill), running.delete(child.pid));
    child.on("error", (error) => (settle(), reject(error)));
    child.on("close", (status, signal) => {
      settle();
      resolve({ ...out, status: status ?? signal, elapsedMs: performance.now() - started });
    });
  });
}
