// Checks 1 and 3 of check:exercises, which run no test: the exercise generates and type-checks (planExercise throws
// otherwise), and filled from the reference it is step N again, byte for byte, as a learner's folder would be written.
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { ExerciseError, planExercise, writeExercise } from "../../steps/runner/exercise/exercise.mjs";
import { listStepFiles } from "../../steps/runner/shared/repo.mjs";

// The exercise writes its own tsconfig.json (noUnusedLocals off, since a blank leaves names unread): the one file
// generated rather than copied, so it is compared to nothing.
const GENERATED = "tsconfig.json";

const same = (a, b) => {
  try {
    return readFileSync(a).equals(readFileSync(b));
  } catch {
    return false; // one of them is missing
  }
};

/** Files of `dir` that differ from step N's, or are missing or extra (its tsconfig.json aside). */
function differencesFromStep(step, dir) {
  const expected = [...listStepFiles(step.dir), "lesson.json"].filter((rel) => rel !== GENERATED);
  const differ = expected.filter((rel) => !same(path.join(dir, rel), path.join(step.dir, rel)));
  const extra = [...listStepFiles(dir), "lesson.json"].filter((rel) => rel !== GENERATED && !expected.includes(rel));
  const linked = lstatSync(path.join(dir, "node_modules")).isSymbolicLink();
  return [...differ, ...extra, ...(linked ? [] : ["node_modules (not a link to step N's)"])];
}

/**
 * The folder filled from the reference, written under `scratch`: what differs from step N, beside it roles.json only.
 */
function filledDifferences(plan, scratch) {
  const base = mkdtempSync(path.join(scratch, `${plan.step.id}-filled-`));
  try {
    const dir = path.join(base, plan.step.folder);
    writeExercise(plan, dir, plan.texts(new Set(plan.blanks.map((blank) => blank.id))));
    const beside = readdirSync(base).filter((name) => name !== plan.step.folder && name !== "roles.json");
    return [...differencesFromStep(plan.step, dir), ...beside.map((name) => `../${name}`)];
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** `{ plan }`, or `{ error }` saying which check failed. */
export function planAndCompare(step, previous, scratch) {
  let plan;
  try {
    plan = planExercise(step, previous);
  } catch (error) {
    if (!(error instanceof ExerciseError)) throw error;
    return { error: error.message };
  }
  const differ = filledDifferences(plan, scratch);
  if (differ.length === 0) return { plan };
  return { error: `filled from the reference, the exercise differs from step ${step.id} in ${differ.join(", ")}` };
}
