// Which step test files the test command runs: a test whose inputs (inputs.mjs) equal those of the previous step's
// same-named test is skipped. Comparisons chain, so a skipped test is always an identical copy of one that ran.
import path from "node:path";
import { byCodeUnit, listStepFiles, listSteps, REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { contentReader, difference, testInputs } from "./inputs.mjs";

// The test files themselves; helpers under src/test/ and fixtures are inputs, not tests.
export const isStepTest = (rel) => /\.test\.[mc]?[jt]s$/.test(rel);
// Tests of the tooling are never skipped: they test this very selection, among other things.
export const ALWAYS_RUN = ["scripts", "steps/runner"];

/** Why the test `rel` of `step` runs, or undefined when the previous step's copy has the same inputs. */
function whyRun(prev, step, rel, inputsOf) {
  if (prev === undefined) return "first step";
  if (!listStepFiles(prev.dir).includes(rel)) return "new";
  const after = inputsOf(step.dir, rel);
  if (after.unresolved.length > 0) return `unresolved: ${after.unresolved[0]}`;
  return difference(inputsOf(prev.dir, rel).inputs, after.inputs);
}

/**
 * `{ run: [{ step, file, why }], skipped: [{ step, file, sameAs }] }` for every step test file under `root`, with
 * `file` and `sameAs` (the copy that ran) relative to `root`.
 */
export function selectTests({ root = REPO_ROOT } = {}) {
  const read = contentReader();
  const known = new Map();
  const inputsOf = (dir, rel) => {
    const key = path.join(dir, rel);
    if (!known.has(key)) known.set(key, testInputs(dir, rel, { root, read }));
    return known.get(key);
  };
  const run = [];
  const skipped = [];
  const ranAs = new Map();
  const steps = listSteps(path.join(root, "steps"));
  steps.forEach((step, index) => {
    const prev = steps[index - 1];
    for (const rel of listStepFiles(step.dir).filter(isStepTest)) {
      const file = `steps/${step.folder}/${rel}`;
      const why = whyRun(prev, step, rel, inputsOf);
      if (why !== undefined) {
        run.push({ step: step.id, file, why });
        continue;
      }
      const before = `steps/${prev.folder}/${rel}`;
      ranAs.set(file, ranAs.get(before) ?? before);
      skipped.push({ step: step.id, file, sameAs: ranAs.get(file) });
    }
  });
  return { run, skipped };
}

/**
 * The positional filters for `vitest run`. Vitest keeps a test file when the filter, made relative to the file's
 * project folder, is a substring of the file's path there: "steps/01-x/src/a.test.ts" becomes "../01-x/src/a.test.ts"
 * inside steps/11-x and matches nothing. The tooling folders are absolute, matched as a prefix of each file's path:
 * a relative "scripts/" becomes "/" inside the scripts project and misses its top-level tests.
 */
export function vitestFilters({ run }, root = REPO_ROOT) {
  return [...run.map(({ file }) => file), ...ALWAYS_RUN.map((folder) => `${path.join(root, folder)}/`)];
}

/** The one line the test command prints about the selection. */
export function summary({ run, skipped }) {
  const total = run.length + skipped.length;
  const unchanged = `${skipped.length} unchanged since the previous step`;
  return `test: running ${run.length} of ${total} step test files; ${unchanged} (pnpm test:all runs them all)`;
}

/** One line per step test file: why it runs, or which identical copy ran instead. */
export function reasons({ run, skipped }) {
  const lines = [
    ...run.map(({ file, why }) => [file, `  run  ${file}: ${why}`]),
    ...skipped.map(({ file, sameAs }) => [file, `  skip ${file}: same as ${sameAs}`]),
  ];
  return lines.sort(([a], [b]) => byCodeUnit(a, b)).map(([, line]) => line);
}
