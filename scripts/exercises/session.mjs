// What one check:exercises run shares: a scratch folder, a cap on concurrent vitest runs, and markers for the
// processes its runs start, so that one that left its run's process group is still found; all of it ends with the run.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { killAll } from "./vitest-run.mjs";

// Most of a run is spent waiting on the processes its tests start, so a few more runs than cores keep the machine busy.
/** A cap on concurrent tasks; `idle()` resolves once no task is waiting for a slot. */
export function createLimit(max) {
  let running = 0;
  const waiting = [];
  const idlers = [];
  const next = () => {
    while (running < max && waiting.length > 0) {
      const { task, resolve, reject } = waiting.shift();
      running++;
      task()
        .then(resolve, reject)
        .finally(() => {
          running--;
          next();
        });
    }
    if (waiting.length === 0) idlers.splice(0).forEach((resolve) => resolve());
  };
  const limit = (task) => new Promise((resolve, reject) => (waiting.push({ task, resolve, reject }), next()));
  limit.idle = () => (waiting.length === 0 ? Promise.resolve() : new Promise((resolve) => idlers.push(resolve)));
  return limit;
}

/** The scratch folder, the prefix of every run's marker, and the cleanup that runs however the process ends. */
export function startSession(opts) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-check-exercises-"));
  const marker = randomBytes(8).toString("hex");
  process.on("exit", () => {
    killAll(marker);
    rmSync(scratch, { recursive: true, force: true });
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(130));
  let runs = 0;
  const nextMarker = () => `${marker}-${++runs}`;
  return { scratch, nextMarker, env: process.env, limit: createLimit(opts.jobs), verbose: opts.verbose };
}
