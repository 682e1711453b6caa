// THE test command (`pnpm test`): typecheck, vitest, format check, docs check, step checks, exercise checks. Every
// phase runs even after a failure, so one run shows everything; vitest must also leave no process and no temporary
// file behind. Output is streamed, except the typecheck's and the format check's: they run alongside vitest at the
// lowest priority, on the CPU vitest leaves idle while its tests wait on child processes, and print after it. Vitest
// skips a step test whose inputs equal its predecessor's copy (select.mjs); --all runs every test; --changed only what
// differs from HEAD (changed.mjs).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { canCheck, findLeftovers, fixturesIn, killLeftovers, leftInTemp, MARKER, snapshotPids } from "./leftovers.mjs";
import { reasons, selectTests, summary, vitestFilters } from "./select.mjs";
import { changedCode, changedFilters, changedReport, selectChanged } from "./changed.mjs";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const bin = (name) => path.join(REPO_ROOT, "node_modules", ".bin", name);
const ALL = process.argv.includes("--all");
// --changed: the tests whose inputs differ from HEAD, the format check of the files that differ, the typecheck and
// check:steps; the docs and exercise checks are skipped.
const CHANGED = !ALL && process.argv.includes("--changed");
// --why (or LEARN_MCP_TEST_WHY=1) prints, per step test file, why it runs or which identical copy ran instead.
const WHY = process.argv.includes("--why") || process.env.LEARN_MCP_TEST_WHY === "1";

/**
 * Runs a command to its end; resolves with its status. `output` collects what it prints instead of showing it, and
 * also lowers the command's priority: a phase in the background must not take the CPU from vitest's tests.
 */
function run(command, args, { env = process.env, output } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: output ? ["ignore", "pipe", "pipe"] : "inherit" });
    if (output && child.pid !== undefined) lowerPriority(child.pid);
    if (output) for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => {
      console.error(`cannot start ${command}: ${error.message}`);
      resolve(1);
    });
    child.on("close", (status, signal) => resolve(status ?? signal));
  });
}

/** The lowest priority (nice 19), on Linux and macOS alike. */
function lowerPriority(pid) {
  try {
    os.setPriority(pid, os.constants.priority.PRIORITY_LOW);
  } catch {
    // Already ended, or not allowed here: it runs at normal priority, only slower for vitest.
  }
}

/** Starts `phase` now and returns one that waits for it, then prints what it printed. */
function inBackground(phase) {
  const output = [];
  const started = Date.now();
  const finished = phase(output).then((status) => ({ status, ms: Date.now() - started }));
  return async () => {
    const { status, ms } = await finished;
    process.stdout.write(Buffer.concat(output));
    console.log("(ran alongside vitest)");
    return { status, ms };
  };
}

/** `vitest run` with filters for the selected step tests and every tooling test; all tests with --all. */
function vitestArgs() {
  if (ALL) {
    console.log("test: running every test file (--all)");
    return ["run"];
  }
  try {
    if (CHANGED) return changedArgs();
    const selection = selectTests();
    console.log(summary(selection));
    if (WHY) reasons(selection).forEach((line) => console.log(line));
    return ["run", ...vitestFilters(selection)];
  } catch (error) {
    // A selection that cannot be made must not hide a test: run them all.
    console.log(`test: cannot select tests (${error.message}); running every test file`);
    return ["run"];
  }
}

/** `vitest run` with the --changed selection, or null when it selects nothing (vitest without filters runs all). */
function changedArgs() {
  const selection = selectChanged();
  changedReport(selection).forEach((line) => console.log(line));
  const filters = changedFilters(selection);
  return filters.length === 0 ? null : ["run", ...filters];
}

// The marker tags every process vitest starts, however deep, unless a client strips its child's environment.
// HOME is an empty temporary folder: no test may read or write the real home, and one that tried would find nothing.
// TMPDIR is another, this run's alone: what a test leaves in os.tmpdir() is found there, and nobody else's is.
async function vitestLeavingNothing() {
  if (!canCheck())
    console.log("test: the check for leftover processes needs Linux (it reads their environment in /proc); skipped");
  const before = canCheck() ? snapshotPids() : undefined;
  const fixturesBefore = fixturesIn(REPO_ROOT);
  const args = vitestArgs();
  if (args === null) {
    console.log("test: no test selected; vitest not started");
    return 0;
  }
  const marker = randomBytes(8).toString("hex");
  const scratch = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-test-run-"));
  const [home, tmp] = ["home", "tmp"].map((name) => path.join(scratch, name));
  [home, tmp].forEach((folder) => mkdirSync(folder));
  const env = { ...process.env, [MARKER]: marker, HOME: home, USERPROFILE: home, TMPDIR: tmp };
  try {
    const status = await run(bin("vitest"), args, { env });
    await sleep(1000); // let processes that are already shutting down finish
    const processes = before === undefined ? 0 : reportProcesses(findLeftovers({ before, marker, root: REPO_ROOT }));
    const entries = [...leftInTemp(tmp).map((name) => `$TMPDIR/${name}`), ...newFixtures(fixturesBefore)];
    if (entries.length > 0) {
      console.log(`test: ${entries.length} temporary file(s) or folder(s) left by the tests; removing them:`);
      for (const name of entries) console.log(`  ${name}`);
    }
    if (status !== 0) return status;
    return processes > 0 ? "leftover processes" : entries.length > 0 ? "leftover temporary files" : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The runner's fixture folders that appeared during the run, removed; one there before is a developer's to mind. */
function newFixtures(before) {
  const left = fixturesIn(REPO_ROOT).filter((rel) => !before.includes(rel));
  for (const rel of left) rmSync(path.join(REPO_ROOT, rel), { recursive: true, force: true });
  return left;
}

/** Prints and kills the processes vitest left running; returns how many there were. */
function reportProcesses(leftovers) {
  if (leftovers.length === 0) return 0;
  console.log(`test: ${leftovers.length} process(es) left running after vitest; killing them:`);
  for (const { pid, command } of leftovers) console.log(`  pid ${pid}: ${command}`);
  killLeftovers(leftovers);
  return leftovers.length;
}

const typecheck = inBackground((output) => run(bin("tsc"), ["--noEmit", "-p", "tsconfig.json"], { output }));
// `pnpm format:check`'s own command (node and a script), read from package.json so that the two cannot drift apart.
const formatScript = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).scripts["format:check"];
const formatCheck = inBackground((output) => {
  const files = CHANGED ? changedCode(REPO_ROOT) : undefined;
  if (files?.length === 0) output.push(Buffer.from("test: no changed TypeScript or JavaScript file to format-check\n"));
  return files?.length === 0
    ? Promise.resolve(0)
    : run(process.execPath, [...formatScript.split(" ").slice(1), ...(files ?? [])], { output });
});
const phases = [
  ["vitest", vitestLeavingNothing],
  ["typecheck", typecheck],
  ["format:check", formatCheck],
  ["docs:check", () => run(process.execPath, ["scripts/docs/docs.mjs", "check"])],
  ["check:steps", () => run(process.execPath, ["scripts/checks/check-steps.mjs"])],
  // Only steps whose record entry is stale; --all is not passed on: re-checking every step takes about 20 minutes.
  ["check:exercises", () => run(process.execPath, ["scripts/checks/check-exercises.mjs"])],
];

const SLOW = ["docs:check", "check:exercises"];
const results = [];
for (const [name, phase] of phases) {
  console.log(`\n=== ${name}`);
  if (CHANGED && SLOW.includes(name)) {
    console.log(`test: ${name} skipped with --changed (pnpm test runs it)`);
    continue;
  }
  const started = Date.now();
  // A phase resolves with its status, or with { status, ms } when it ran before its turn came.
  const ended = await phase();
  const { status, ms } =
    typeof ended === "object" && ended !== null ? ended : { status: ended, ms: Date.now() - started };
  results.push({ name, status, seconds: (ms / 1000).toFixed(1) });
}

// A status is an exit code, a signal name, or a reason such as "leftover processes".
function outcome(status) {
  if (status === 0) return "passed";
  return `FAILED (${typeof status === "number" ? `exit ${status}` : status})`;
}

console.log("");
for (const { name, status, seconds } of results) console.log(`${name}: ${outcome(status)} in ${seconds} s`);
const failed = results.filter((result) => result.status !== 0).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
