// Helpers for run.test.mjs: start the runner as a learner would, and write fixture steps to a temporary folder.
// The folder sits inside the repository (and ignores itself) so tsx resolves from a fixture step as from a real one.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { listSteps, REPO_ROOT as repoRoot } from "../shared/repo.mjs";

const runnerDir = join(repoRoot, "steps", "runner");
const runner = join(repoRoot, "steps", "run.mjs");
export const realSteps = listSteps(join(repoRoot, "steps")).map((step) => step.folder);
export const step01 = realSteps[0];
export const ESC = "\x1b[";

// The prefix of a fixture folder in steps/runner. The test command reports one left behind, and vitest never collects
// the tests inside one as the runner's own.
export const FIXTURE_PREFIX = ".tmp-run-";

const tempDirs = [];
/** Call from afterAll: removes every fixture folder written so far. */
export function removeFixtures() {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes a steps folder of fixture steps ({ "01-a": { "src/main.ts": "..." } }) and returns its path. */
export function fixtureSteps(steps) {
  const dir = mkdtempSync(join(runnerDir, FIXTURE_PREFIX));
  tempDirs.push(dir);
  writeFileSync(join(dir, ".gitignore"), "*\n");
  for (const [folder, files] of Object.entries(steps)) {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, folder, path)), { recursive: true });
      writeFileSync(join(dir, folder, path), text);
    }
  }
  return dir;
}

function cleanEnv(extra = {}) {
  const { FORCE_COLOR, NO_COLOR, LEARN_MCP_STEPS_DIR, NODE_OPTIONS, ...env } = process.env;
  return { ...env, ...extra };
}

export function start(args, { stepsDir, env = {} } = {}) {
  const extra = stepsDir ? { LEARN_MCP_STEPS_DIR: stepsDir, ...env } : env;
  return spawn(process.execPath, [runner, ...args], { cwd: repoRoot, env: cleanEnv(extra) });
}

export function run(args, options) {
  const child = start(args, options);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, stdout, stderr })));
}
