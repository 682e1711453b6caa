// A restored file: absent from the step before, and byte-identical at the same path to the last earlier step that had
// it. It teaches nothing new, so --diff shows it as one line, the size rule counts it as 0 and the exercise copies it.
import { listStepFiles, readStepFile } from "./shared/repo.mjs";

/**
 * The restored files of `step`, as a Map from path to the earlier step it comes back from. `earlier` is every step
 * before `step`, in order; any objects with a `dir` will do, so check:steps and the runner share this one rule.
 */
export function restoredFiles(earlier, step) {
  const previous = earlier.at(-1);
  if (previous === undefined) return new Map();
  const before = new Set(listStepFiles(previous.dir));
  const restored = new Map();
  for (const rel of listStepFiles(step.dir).filter((rel) => !before.has(rel))) {
    const from = earlier.slice(0, -1).findLast((other) => readStepFile(other.dir, rel) !== null);
    if (from !== undefined && readStepFile(from.dir, rel) === readStepFile(step.dir, rel)) restored.set(rel, from);
  }
  return restored;
}
