// Everything a check starts or makes, tracked so that every way out stops it: the processes (each in its own group,
// so that Ctrl-C reaches only the runner) and the temporary folders. Nothing a check leaves behind outlives it.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { killTree, signalGroup, stopGroup } from "../shared/processes.mjs";

const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };
const children = new Set();
const folders = new Set();
let installed = false;
let stopping = false;

/** Installs the handlers that stop everything tracked on SIGINT, SIGTERM or SIGHUP, and on exit; once. */
export function installCleanup() {
  if (installed) return;
  installed = true;
  for (const name of Object.keys(SIGNAL_EXIT)) process.on(name, () => stopAll(name));
  // A throw or process.exit skips the async path: whatever is left gets SIGKILL and the folders go, synchronously.
  process.on("exit", () => {
    for (const child of children) if (child.pid !== undefined) signalGroup(child.pid, "SIGKILL");
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
}

async function stopAll(name) {
  if (stopping) return; // A second Ctrl-C while stopping changes nothing: the grace period is short.
  stopping = true;
  await Promise.all([...children].filter((child) => child.pid !== undefined).map((child) => killTree(child.pid, 1000)));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  process.exit(SIGNAL_EXIT[name]);
}

/** A temporary folder that is removed on every way out; call the function it returns to remove it sooner. */
export function trackFolder(folder) {
  installCleanup();
  folders.add(folder);
  return () => {
    rmSync(folder, { recursive: true, force: true });
    folders.delete(folder);
  };
}

/**
 * Starts a program in its own process group: `done` resolves with { status, stdout, stderr, timedOut, leftProcesses },
 * `stop()` ends it and all it started. Past `timeoutMs` it is stopped; once it exits, what it left in its group is too.
 */
export function startTracked(command, args, { cwd, env = process.env, timeoutMs }) {
  installCleanup();
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const out = { status: null, stdout: "", stderr: "", timedOut: false, stopped: false, leftProcesses: false };
  child.stdout.setEncoding("utf8").on("data", (text) => (out.stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text) => (out.stderr += text));
  children.add(child);
  const stop = () => (child.pid === undefined ? Promise.resolve() : killTree(child.pid, 1000));
  const timer = setTimeout(() => {
    out.timedOut = true;
    stop();
  }, timeoutMs);
  const done = new Promise((resolve) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ ...out, status: 127, stderr: error.message });
    });
    child.on("close", async (code, signal) => {
      clearTimeout(timer);
      const left = await stopGroup(child.pid);
      children.delete(child);
      resolve({ ...out, status: code ?? signal, leftProcesses: left && !out.timedOut && !out.stopped });
    });
  });
  return { done, stop: () => ((out.stopped = true), stop()) };
}
