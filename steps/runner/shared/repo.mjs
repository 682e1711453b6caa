// The repository as every tool sees it: where it is, which steps it has, what files a step holds, and when two copies
// of a file count as the same. The runner's --diff, check:steps and the test selection all use this one rule.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
// Test-only: LEARN_MCP_STEPS_DIR points the runner at a fixture folder laid out like steps/.
export const STEPS_DIR = process.env.LEARN_MCP_STEPS_DIR
  ? path.resolve(process.env.LEARN_MCP_STEPS_DIR)
  : path.join(REPO_ROOT, "steps");

export const STEP_FOLDER = /^(\d\d)-[a-z0-9-]+$/;
// lesson.json describes the step to the tools; it is never part of what a learner reads in a diff.
const NOT_STEP_FILES = new Set(["node_modules", ".DS_Store", "lesson.json"]);

/** Plain code-unit order: the same on every machine, unlike localeCompare. */
export const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** Every step folder of `stepsDir`, in order, with its number and the title from lesson.json. */
export function listSteps(stepsDir = STEPS_DIR) {
  return readdirSync(stepsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && STEP_FOLDER.test(entry.name))
    .map((entry) => entry.name)
    .sort(byCodeUnit)
    .map((folder) => {
      const dir = path.join(stepsDir, folder);
      const lesson = readLesson(dir);
      return {
        id: folder.slice(0, 2),
        number: Number(folder.slice(0, 2)),
        folder,
        dir,
        title: lesson.title ?? "(no title)",
        lesson,
      };
    });
}

/** A step's lesson.json, or `{ error }` when it is missing or not JSON. */
export function readLesson(dir) {
  return readJson(path.join(dir, "lesson.json"));
}

export function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { error: error.message };
  }
}

/** "1", "01" and "001" all name step 01; anything else names no step. */
export function findStep(steps, arg) {
  if (!/^\d+$/.test(arg)) return undefined;
  return steps.find((step) => step.number === Number(arg));
}

/** The step just before `step`, or undefined for the first one. */
export const previousStep = (steps, step) => steps.filter((other) => other.number < step.number).at(-1);

/** Every file of a step folder as sorted "/"-separated relative paths; installs, logs and lesson.json left out. */
export function listStepFiles(dir, prefix = "") {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (NOT_STEP_FILES.has(entry.name) || entry.name.endsWith(".log")) continue;
    const rel = prefix + entry.name;
    if (entry.isDirectory()) files.push(...listStepFiles(path.join(dir, entry.name), `${rel}/`));
    else if (entry.isFile()) files.push(rel);
  }
  return files.sort(byCodeUnit);
}

/** Tests, their helpers (src/test/) and the fixture programs they start (src/fixtures/). */
export const isTestFile = (rel) => /\.test\.[mc]?[jt]s$/.test(rel) || /(^|\/)src\/(test|fixtures)\//.test(rel);
/** TypeScript a step runs, tests and their helpers excluded. */
export const isSource = (rel) => /\.(ts|mts|cts)$/.test(rel) && !isTestFile(rel);

//#region same-file
// The first "name" key of a package.json is the package's own name: every step needs its own, and it teaches nothing.
const NAME_LINE = /^[ \t]*"name"[ \t]*:.*$/m;

/** The old side of a file as it should be compared with `newText`: package.json takes the new side's name line. */
export function comparableOld(rel, oldText, newText) {
  if (path.posix.basename(rel) !== "package.json" || oldText === null || newText === null) return oldText;
  const newName = NAME_LINE.exec(newText);
  return newName ? oldText.replace(NAME_LINE, () => newName[0]) : oldText;
}

/** A step file's text, or null when it does not exist. */
export function readStepFile(dir, rel) {
  const file = path.join(dir, rel);
  return existsSync(file) ? readFileSync(file, "utf8") : null;
}

/** How `rel` changed from `prevDir` to `dir`: "new", "removed", "changed", or undefined when the same. */
export function changeOf(prevDir, dir, rel) {
  const after = readStepFile(dir, rel);
  const before = comparableOld(rel, readStepFile(prevDir, rel), after);
  if (before === after) return undefined;
  return before === null ? "new" : after === null ? "removed" : "changed";
}
//#endregion
