// One vitest run over an exercise variant, in its own process group, killed whole when it ends or overruns: a test
// that hangs, or a server it started and never stopped, must cost a bounded time and leave nothing behind.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { MARKER } from "../test/leftovers.mjs";
import { canReadProc, environment, signalGroup, snapshotPids } from "../../steps/runner/shared/processes.mjs";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { killRunning, runInGroup } from "../shared/process-group.mjs";

const VITEST = path.join(REPO_ROOT, "node_modules", ".bin", "vitest");
/**
 * How many processes outlived their run's process group (a test moved them to a group of their own) and were killed.
 */
export const strays = { count: 0 };

/** Kills every run still going and whatever carries a marker starting with `prefix`: on Ctrl-C, and before exiting. */
export function killAll(prefix) {
  killRunning();
  killMarked((value) => value.startsWith(prefix));
}

// Only Linux shows another process's environment (/proc); elsewhere the process group is all there is to kill.
function killMarked(matches) {
  if (!canReadProc()) return;
  for (const pid of snapshotPids()) {
    const tag = environment(pid).find((entry) => entry.startsWith(`${MARKER}=`));
    if (tag === undefined || !matches(tag.slice(MARKER.length + 1)) || pid === process.pid) continue;
    try {
      process.kill(pid, "SIGKILL");
      strays.count++;
    } catch {
      // It exited meanwhile.
    }
  }
}

/**
 * Runs `files` (relative to `dir`) with vitest. Each test is bounded by `testTimeout` ms and the whole run by `wallMs`;
 * `bail` stops at the first failure; `marker`, unique to the run, tags every process it starts. Resolves with
 * `{ status: "pass" | "fail" | "broken", failures, failed, passed, ms, output }` (readReport below): `failed` names
 * the tests seen failing; "broken" means vitest wrote no report.
 */
export async function runVitest({ dir, files, testTimeout, wallMs, marker, bail = true, env = process.env }) {
  const report = path.join(dir, "..", `vitest-report-${path.basename(dir)}.json`);
  const timeouts = [`--testTimeout=${testTimeout}`, `--hookTimeout=${testTimeout}`, `--teardownTimeout=${testTimeout}`];
  const args = [
    "run",
    "--root",
    dir,
    ...timeouts,
    "--no-cache",
    "--maxWorkers=1",
    "--reporter=json",
    `--outputFile=${report}`,
  ];
  if (bail) args.push("--bail=1");
  args.push(...files.map((rel) => path.join(dir, rel)));
  const started = Date.now();
  const run = await runInGroup(VITEST, args, { cwd: dir, env: { ...env, [MARKER]: marker }, timeoutMs: wallMs }).catch(
    (error) => ({ output: `cannot start vitest: ${error.message}\n`, timedOut: false }),
  );
  if (run.pid !== undefined) signalGroup(run.pid, "SIGKILL"); // what the tests started and left running
  killMarked((value) => value === marker); // and what they moved out of the group
  return { ...outcome(report, dir, files, run.timedOut, wallMs), ms: Date.now() - started, output: run.output };
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
  if (overran) {
    const failures = files.map((rel) => ({
      name: `${rel} > (vitest did not end within ${wallMs / 1000} s)`,
      message: "overran",
    }));
    return { status: "fail", failures, failed: failures.map((f) => f.name), passed: new Map() };
  }
  if (json === undefined) return { status: "broken", failures: [], failed: [], passed: new Map() };
  const { failures, passed } = readReport(json, dir);
  if (json.success && failures.length === 0) return { status: "pass", failures, failed: [], passed };
  if (failures.length === 0) failures.push({ name: "(vitest failed outside any test)", message: "" });
  return { status: "fail", failures, failed: failures.map((f) => f.name), passed };
}

// Vitest's json reporter replaces a timeout's message with the placeholder of the stack it captured for it.
const TIMEOUT_PLACEHOLDER = "Error: STACK_TRACE_ERROR";
const posix = (rel) => rel.split(path.sep).join("/");

/**
 * `{ failures, passed }`: each failed test as `{ name, message, timedOutAfter? }` (a file that failed outside its
 * tests, in an import or a hook, by its path), and how long each passing test took, name -> ms.
 * Names are "file > describe > test", the file relative to the variant.
 */
export function readReport(json, dir) {
  const failures = [];
  const passed = new Map();
  for (const file of json.testResults ?? []) {
    const rel = posix(path.relative(dir, file.name));
    const tests = file.assertionResults ?? [];
    for (const test of tests) {
      const name = [rel, ...test.ancestorTitles, test.title].join(" > ");
      if (test.status === "passed") passed.set(name, test.duration ?? 0);
      if (test.status !== "failed") continue;
      const message = test.failureMessages?.[0] ?? "";
      const timedOut = message.startsWith(TIMEOUT_PLACEHOLDER);
      failures.push({
        name,
        message: timedOut ? "" : message.split("\n")[0],
        ...(timedOut && { timedOutAfter: test.duration }),
      });
    }
    if (file.status === "failed" && !tests.some((test) => test.status === "failed")) {
      failures.push({ name: rel, message: (file.message ?? "").split("\n")[0] });
    }
  }
  return { failures, passed };
}
