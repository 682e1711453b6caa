// One step's exercise, checked: it generates and type-checks, filled from the reference it is step N again and passes
// step N's tests, untouched some test fails, and with only one blank left some test that reaches its file fails.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { runVitest } from "./vitest-run.mjs";
import { ExerciseError, planExercise, writeExercise } from "../../steps/runner/exercise/exercise.mjs";
import { listStepFiles } from "../../steps/runner/shared/repo.mjs";

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
      const home = mkdtempSync(path.join(base, "home-"));
      const env = { ...options.env, HOME: home, USERPROFILE: home };
      const result = await runVitest({ dir, files, env, testTimeout: options.testTimeout, wallMs: options.wallMs });
      if (options.verbose) console.log(verboseLine(plan.step, label, result));
      return result;
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
}

function verboseLine(step, label, { status, ms, failed, slowest }) {
  const slow = slowest?.name ? `; slowest passing ${(slowest.ms / 1000).toFixed(1)} s: ${slowest.name}` : "";
  return `  ${step.id} ${label}: ${status} in ${(ms / 1000).toFixed(1)} s${failed.length ? `, first failing ${failed[0]}` : ""}${slow}`;
}

// The exercise writes its own tsconfig.json (noUnusedLocals off, since a blank leaves names unread): the one file
// generated rather than copied, so it is compared to nothing.
const GENERATED = "tsconfig.json";

/** Files of `dir` that differ from step N's, or are missing or extra (its tsconfig.json aside). */
function differencesFromStep(step, dir) {
  const expected = [...listStepFiles(step.dir), "lesson.json"].filter((rel) => rel !== GENERATED);
  const differ = expected.filter((rel) => {
    try {
      return !readFileSync(path.join(dir, rel)).equals(readFileSync(path.join(step.dir, rel)));
    } catch {
      return true;
    }
  });
  const written = [...listStepFiles(dir), "lesson.json"].filter((rel) => rel !== GENERATED && !expected.includes(rel));
  const linked = lstatSync(path.join(dir, "node_modules")).isSymbolicLink();
  return [...differ, ...written, ...(linked ? [] : ["node_modules (not a link to step N's)"])];
}

/** Check 3 on disk: the folder filled from the reference, written as the learner would get it. */
function filledDifferences(plan, scratch) {
  const base = mkdtempSync(path.join(scratch, `${plan.step.id}-filled-`));
  try {
    const dir = path.join(base, plan.step.folder);
    writeExercise(plan, dir, plan.texts(new Set(plan.blanks.map((blank) => blank.id))));
    const roles = readdirSync(base).filter((name) => name !== plan.step.folder);
    return roles.length === 1 && roles[0] === "roles.json" ? differencesFromStep(plan.step, dir) : differencesFromStep(plan.step, dir).concat(roles);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Checks 1 and 3 without running a test: `{ plan }` or `{ error }`. */
export function planAndCompare(step, previous, scratch) {
  let plan;
  try {
    plan = planExercise(step, previous);
  } catch (error) {
    if (!(error instanceof ExerciseError)) throw error;
    return { error: error.message };
  }
  const differ = filledDifferences(plan, scratch);
  if (differ.length > 0) return { error: `filled from the reference, the exercise differs from step ${step.id} in ${differ.join(", ")}` };
  return { plan };
}

const FILLED_WALL_MS = 600_000;
const failedBeyond = (result) => (result.status === "broken" ? `vitest wrote no report:\n${result.output.slice(-2000)}` : undefined);

/**
 * Runs every variant of `plan` and resolves with `{ entry, error? }`: per blank the tests seen failing with only it left
 * (none: a gap, with the test files that ran), and the tests that fail untouched. `tests` is the step's test files with
 * what each reaches (record.mjs testsReach). An `error` means the runs prove nothing and the entry is not to be kept.
 */
export async function runChecks(plan, tests, options) {
  const { step } = plan;
  const all = tests.map((test) => test.rel);
  const everyId = plan.blanks.map((blank) => blank.id);
  // The reference passes in the repo; this shows it also passes from a folder outside it, so a failure below is the blank's.
  const filled = await runVariant(plan, new Set(everyId), all, { ...options, wallMs: FILLED_WALL_MS }, "filled");
  if (filled.status !== "pass") {
    const why = failedBeyond(filled) ?? filled.failed.join("\n  ");
    return { error: `filled from the reference, step ${step.id}'s tests fail outside the repository:\n  ${why}` };
  }
  // A run that outlasts the whole passing suite several times over is hung outside any one test (an import, a teardown).
  const bounded = { ...options, wallMs: 60_000 + 3 * filled.ms };
  const untouched = runVariant(plan, new Set(), all, bounded, "untouched");
  const perBlank = plan.blanks.map((blank) => {
    const files = tests.filter((test) => test.files.has(path.join(step.dir, blank.file))).map((test) => test.rel);
    if (files.length === 0) return Promise.resolve({ blank, files, result: { status: "pass", failed: [] } });
    const others = new Set(everyId.filter((id) => id !== blank.id));
    return runVariant(plan, others, files, bounded, blank.id).then((result) => ({ blank, files, result }));
  });
  const results = await Promise.all([untouched, ...perBlank]);
  const broken = results.map((result) => failedBeyond(result.result ?? result)).find(Boolean);
  if (broken) return { error: broken };
  const [untouchedResult, ...blankResults] = results;
  const blanks = {};
  for (const { blank, files, result } of blankResults) {
    blanks[blank.id] = result.failed.length > 0 ? { tests: [...result.failed].sort() } : { tests: [], ran: files };
  }
  return { entry: { untouched: { tests: [...untouchedResult.failed].sort() }, blanks } };
}
