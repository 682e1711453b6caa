// One vitest run over an exercise variant, in its own process group, killed whole when it ends or overruns: a test
// that hangs, or a server it started and never stopped, must cost a bounded time and leave nothing behind.
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const VITEST = path.join(REPO_ROOT, "node_modules", ".bin", "vitest");
const live = new Set();

/** Kills the process group of every run still going: on Ctrl-C, and before exiting. */
export function killAll() {
  for (const pid of live) killGroup(pid);
}

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // The whole group has exited already.
  }
}

/**
 * Runs `files` (relative to `dir`) with vitest. Each test is bounded by `testTimeout` ms and the whole run by `wallMs`;
 * `bail` stops at the first failure. Resolves with `{ status: "pass" | "fail" | "broken", failed, ms, output }`:
 * `failed` names the tests seen failing ("src/a.test.ts > describe > test"); "broken" means no report was written.
 */
export function runVitest({ dir, files, testTimeout, wallMs, bail = true, env = process.env }) {
  const report = path.join(dir, "..", `vitest-report-${path.basename(dir)}.json`);
  const timeouts = [`--testTimeout=${testTimeout}`, `--hookTimeout=${testTimeout}`, `--teardownTimeout=${testTimeout}`];
  const args = ["run", "--root", dir, ...timeouts, "--no-cache", "--maxWorkers=1", "--reporter=json", `--outputFile=${report}`];
  if (bail) args.push("--bail=1");
  args.push(...files.map((rel) => path.join(dir, rel)));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(VITEST, args, { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    live.add(child.pid);
    const output = [];
    for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.push(chunk));
    let overran = false;
    const timer = setTimeout(() => {
      overran = true;
      killGroup(child.pid);
    }, wallMs);
    child.on("error", (error) => output.push(Buffer.from(`cannot start vitest: ${error.message}\n`)));
    child.on("close", () => {
      clearTimeout(timer);
      killGroup(child.pid); // what the tests started and left running
      live.delete(child.pid);
      const text = Buffer.concat(output).toString("utf8");
      resolve({ ...outcome(report, dir, files, overran, wallMs), ms: Date.now() - started, output: text });
    });
  });
}

/** What the report says; a run killed for overrunning counts as failing in every file it ran. */
function outcome(report, dir, files, overran, wallMs) {
  let json;
  try {
    json = JSON.parse(readFileSync(report, "utf8"));
  } catch {
    json = undefined;
  } finally {
    rmSync(report, { force: true });
  }
  if (overran) return { status: "fail", failed: files.map((rel) => `${rel} > (vitest did not end within ${wallMs / 1000} s)`) };
  if (json === undefined) return { status: "broken", failed: [] };
  const failed = failedTests(json, dir);
  const slowest = slowestTest(json, dir);
  if (json.success && failed.length === 0) return { status: "pass", failed, slowest };
  return { status: "fail", failed: failed.length > 0 ? failed : ["(vitest failed outside any test)"], slowest };
}

const nameOf = (dir, file, test) => [path.relative(dir, file.name).split(path.sep).join("/"), ...test.ancestorTitles, test.title].join(" > ");

/** The longest-running test that passed, `{ name, ms }`: what the test timeout is measured against. */
function slowestTest(json, dir) {
  let slowest = { name: undefined, ms: 0 };
  for (const file of json.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === "passed" && test.duration > slowest.ms) slowest = { name: nameOf(dir, file, test), ms: Math.round(test.duration) };
    }
  }
  return slowest;
}

/** "file > describe > test" of every failed test; a file that failed outside its tests (an import, a hook) by name. */
export function failedTests(json, dir) {
  const names = [];
  for (const file of json.testResults ?? []) {
    const failed = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    for (const test of failed) names.push(nameOf(dir, file, test));
    if (failed.length === 0 && file.status === "failed") names.push(path.relative(dir, file.name).split(path.sep).join("/"));
  }
  return names;
}
