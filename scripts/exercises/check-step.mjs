// The test runs of check:exercises for one step: filled from the reference its tests pass outside the repository,
// untouched some test fails, and with only one blank left some test that reaches the blank's file fails.
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { runVitest } from "./vitest-run.mjs";
import { writeExercise } from "../../steps/runner/exercise/exercise.mjs";

// A run still going after this is hung outside any one test (an import, a teardown): twice the slowest whole suite
// measured, step 22's filled run on a loaded machine.
const WALL_MS = 300_000;

/**
 * Writes a variant (blanks in `fill` taken from the reference) into a folder of its own under `scratch`, runs `files`
 * there through `limit` (the shared cap on concurrent runs) and removes the folder.
 */
function runVariant(plan, fill, files, options, label) {
  return options.limit(async () => {
    const base = mkdtempSync(path.join(options.scratch, `${plan.step.id}-`));
    try {
      const dir = path.join(base, plan.step.folder);
      writeExercise(plan, dir, plan.texts(fill));
      // HOME and TMPDIR inside the folder: what a test leaves there, as one cut short by the bound does, goes with it.
      const [home, tmp] = ["home-", "tmp-"].map((prefix) => mkdtempSync(path.join(base, prefix)));
      const env = { ...options.env, HOME: home, USERPROFILE: home, TMPDIR: tmp };
      const run = { dir, files, env, marker: options.nextMarker(), testTimeout: options.testTimeout, wallMs: WALL_MS };
      const result = await runVitest(run);
      if (options.verbose) console.log(verboseLine(plan.step, label, result));
      return result;
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
}

function verboseLine(step, label, { status, ms, failures, passed }) {
  const [first] = failures;
  const why =
    first?.timedOutAfter !== undefined ? `timed out after ${Math.round(first.timedOutAfter)} ms` : first?.message;
  const failing = first ? `, first failing ${first.name}${why ? ` (${why})` : ""}` : "";
  const [slowName, slowMs] = [...passed].reduce((slowest, entry) => (entry[1] > slowest[1] ? entry : slowest), ["", 0]);
  const slow = slowName ? `; slowest passing ${(slowMs / 1000).toFixed(1)} s: ${slowName}` : "";
  return `  ${step.id} ${label}: ${status} in ${(ms / 1000).toFixed(1)} s${failing}${slow}`;
}

/** Why a run proves nothing, or undefined. */
function failedBeyond(result) {
  return result.status === "broken" ? `vitest wrote no report:\n${result.output.slice(-2000)}` : undefined;
}

/**
 * The step's test files that reach the blank's file, nearest first: those that import it (or are named after it) run
 * alone first, since vitest runs files in name order and a far file that starts servers may take a minute to fail.
 */
function stagesFor(blank, step, tests) {
  const target = path.join(step.dir, blank.file);
  const reaching = tests.filter((test) => test.files.has(target));
  const namesake = blank.file.replace(/\.[mc]?ts$/, ".test.ts");
  const near = reaching.filter((test) => test.imports.has(target) || test.rel === namesake).map((test) => test.rel);
  const far = reaching.map((test) => test.rel).filter((rel) => !near.includes(rel));
  return [near, far].filter((stage) => stage.length > 0);
}

/**
 * A failure that is only a timeout of a test that took, filled, more than a third of the time it was given may be the
 * machine's load, not the blank: such a run is repeated once with three times the bound before it counts.
 */
function doubtful(result, filled) {
  const slowFilled = ({ name, timedOutAfter }) =>
    timedOutAfter !== undefined && (filled.passed.get(name) ?? Infinity) * 3 > timedOutAfter;
  return result.status === "fail" && result.failures.length > 0 && result.failures.every(slowFilled);
}

/** Runs the stages of one blank until one fails; `{ result, files }`, files being every file run. */
async function runBlank(plan, blank, tests, filledRun, options) {
  const others = new Set(plan.blanks.map((other) => other.id).filter((id) => id !== blank.id));
  const files = [];
  for (const stage of stagesFor(blank, plan.step, tests)) {
    files.push(...stage);
    let result = await runVariant(plan, others, stage, options, blank.id);
    if (doubtful(result, await filledRun)) {
      const longer = { ...options, testTimeout: 3 * options.testTimeout };
      result = await runVariant(plan, others, stage, longer, `${blank.id}, again with ${longer.testTimeout} ms`);
    }
    if (result.status !== "pass") return { result, files };
  }
  return { result: { status: "pass", failures: [], failed: [] }, files };
}

/**
 * Runs every variant of `plan` and resolves with `{ entry }` or `{ error }`: per blank the tests seen failing with only
 * it left (none: a gap, with the test files that ran), and the tests that fail untouched. `tests` is the step's test
 * files with what each reaches (record.mjs testsReach). An `error` means the runs prove nothing: it is not recorded.
 */
export async function runChecks(plan, tests, options) {
  const all = tests.map((test) => test.rel);
  // The reference passes in the repo; this shows it also passes from a folder outside it, so a failure below is the
  // blank's. It runs alongside the others, which are thrown away if it fails.
  const filled = runVariant(plan, new Set(plan.blanks.map((blank) => blank.id)), all, options, "filled");
  const untouched = runVariant(plan, new Set(), all, options, "untouched");
  const perBlank = plan.blanks.map((blank) => runBlank(plan, blank, tests, filled, options));
  const [filledResult, untouchedResult, ...blankResults] = await Promise.all([filled, untouched, ...perBlank]);
  if (filledResult.status !== "pass") {
    const why = failedBeyond(filledResult) ?? filledResult.failed.join("\n  ");
    return { error: `filled from the reference, step ${plan.step.id}'s tests fail outside the repository:\n  ${why}` };
  }
  const broken = [untouchedResult, ...blankResults.map(({ result }) => result)].map(failedBeyond).find(Boolean);
  if (broken) return { error: broken };
  const blanks = {};
  plan.blanks.forEach((blank, index) => {
    const { result, files } = blankResults[index];
    blanks[blank.id] = result.failed.length > 0 ? { tests: [...result.failed].sort() } : { tests: [], ran: files };
  });
  return { entry: { untouched: { tests: [...untouchedResult.failed].sort() }, blanks } };
}
