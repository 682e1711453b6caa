// What one check:exercises run shares: a scratch folder, a cap on concurrent vitest runs, and markers for the
// processes its runs start, so that one that left its run's process group is still found; all of it ends with the run.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLimit } from "../shared/limit.mjs";
import { killAll } from "./vitest-run.mjs";

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
  // Most of a run waits on the processes its tests start: a few more runs than cores keep the machine busy.
  return { scratch, nextMarker, env: process.env, limit: createLimit(opts.jobs), verbose: opts.verbose };
}
