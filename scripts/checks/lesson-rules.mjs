// The rules that keep a step one lesson: lesson.json's shape, no file the lesson does not use, and the size rule.
// Sizes count added source lines only: tests, their helpers (src/test/) and fixture programs (src/fixtures/) are free.
import path from "node:path";
import { diffLines } from "diff";
import { isSource, isTestFile, readJson, readStepFile } from "../../steps/runner/shared/repo.mjs";
import { restoredFiles } from "../../steps/runner/restored.mjs";
// The runner flags a step may declare; its demo receives them.
import { STEP_FLAGS } from "../../steps/runner/cli.mjs";
import { closure, isCode } from "./closure.mjs";

export const MAX_ADDED_LINES = 300;
export const MEDIAN_ADDED_LINES = 190;
export const OVERSIZED_ADDED_LINES = 250;
export const OVERSIZED_STEPS_ALLOWED = 3;
const LESSON_KEYS = new Set(["title", "part", "changes", "programs", "given", "reason", "flags"]);
// The tutorial's parts, in order; a part starts where a step removes most of the one before it.
export const PARTS = ["by hand over stdio", "with the SDK", "the host", "over HTTP"];

const isPlainPath = (rel) => typeof rel === "string" && path.posix.normalize(rel) === rel && !/^(\.\.)?\//.test(rel);

/** Reads and checks lesson.json; returns it with `changes` and `programs` always arrays. */
export function checkLesson(step, errors) {
  const where = `steps/${step.name}/lesson.json`;
  const lesson = readJson(path.join(step.dir, "lesson.json"));
  if (lesson.error) {
    errors.push(`${where}: cannot be read: ${lesson.error}`);
    return { changes: [], programs: [] };
  }
  for (const key of Object.keys(lesson).filter((key) => !LESSON_KEYS.has(key)))
    errors.push(`${where}: unknown key "${key}"`);
  if (typeof lesson.title !== "string" || lesson.title.trim() === "") errors.push(`${where}: title is missing`);
  const lists = {};
  for (const key of ["changes", "programs"]) {
    const list = lesson[key] ?? [];
    if (!Array.isArray(list) || !list.every(isPlainPath))
      errors.push(`${where}: ${key} must be an array of paths relative to the step`);
    else if (new Set(list).size !== list.length) errors.push(`${where}: ${key} lists a path twice`);
    lists[key] = Array.isArray(list) ? list.filter(isPlainPath) : [];
  }
  if (lesson.reason !== undefined && (typeof lesson.reason !== "string" || lesson.reason.trim() === "")) {
    errors.push(`${where}: reason must be a sentence`);
  }
  if (!PARTS.includes(lesson.part))
    errors.push(`${where}: part must be one of ${PARTS.map((part) => JSON.stringify(part)).join(", ")}`);
  checkPrograms(step, lists.programs, errors);
  checkFlags(step, lesson.flags, errors);
  checkGiven(step, lesson.given, errors);
  return { ...lesson, ...lists };
}

// Given files are copied into the exercise as they are: plumbing the lesson is not about, never its tests. A given
// entry is a file ("src/roles.ts"), or one declaration of a file ("src/server.ts#sampleMedia"): a change with no
// behaviour a test could see (a refactor), which the exercise keeps as the step has it.
function checkGiven(step, given, errors) {
  if (given === undefined) return;
  const where = `steps/${step.name}/lesson.json: given`;
  const fileOf = (entry) => (typeof entry === "string" ? entry.split("#")[0] : entry);
  if (!Array.isArray(given) || !given.map(fileOf).every(isPlainPath))
    return errors.push(`${where} must be an array of paths relative to the step, each with an optional #declaration`);
  for (const entry of given) {
    const rel = fileOf(entry);
    if (readStepFile(step.dir, rel) === null) errors.push(`${where}: "${rel}" does not exist`);
    else if (isTestFile(rel))
      errors.push(`${where}: "${rel}" is a test or a test's helper, which an exercise keeps anyway`);
  }
}

/** The parts follow PARTS' order: a step is in its predecessor's part or a later one. */
export function checkPartOrder(steps, errors) {
  steps.forEach((step, i) => {
    const previous = steps[i - 1];
    if (!previous || !PARTS.includes(step.lesson.part) || !PARTS.includes(previous.lesson.part)) return;
    if (PARTS.indexOf(step.lesson.part) < PARTS.indexOf(previous.lesson.part)) {
      errors.push(
        `steps/${step.name}/lesson.json: part "${step.lesson.part}" comes before ` +
          `steps/${previous.name}'s "${previous.lesson.part}"; a part never comes back`,
      );
    }
  });
}

// A program is started by the demo, so main.ts names it as a literal: "./cli.ts" for src/cli.ts.
function checkPrograms(step, programs, errors) {
  const main = readStepFile(step.dir, "src/main.ts") ?? "";
  for (const program of programs) {
    const where = `steps/${step.name}/lesson.json: program "${program}"`;
    if (readStepFile(step.dir, program) === null) errors.push(`${where} does not exist`);
    const literal = `./${path.posix.relative("src", program)}`;
    if (![`"${literal}"`, `'${literal}'`, `\`${literal}\``].some((quoted) => main.includes(quoted))) {
      errors.push(`${where} is not named as the literal "${literal}" in src/main.ts`);
    }
  }
}

// A declared flag is handled by the demo: main.ts names it as a literal.
function checkFlags(step, flags, errors) {
  if (flags === undefined) return;
  const where = `steps/${step.name}/lesson.json: flags`;
  if (!Array.isArray(flags) || !flags.every((flag) => STEP_FLAGS.includes(flag)))
    return errors.push(`${where} must be an array of ${STEP_FLAGS.join(", ")}`);
  const main = readStepFile(step.dir, "src/main.ts") ?? "";
  for (const flag of flags.filter((flag) => !main.includes(`"${flag}"`)))
    errors.push(`${where}: "${flag}" is not named as a literal in src/main.ts, so the demo ignores it`);
}

/** Every non-test source file must be imported, directly or not, by main.ts, server.ts or a listed program. */
export function checkReach(step, problems) {
  const roots = ["src/main.ts", "src/server.ts", ...step.lesson.programs].filter((rel) => step.files.includes(rel));
  const { files } = closure(
    roots.map((rel) => path.join(step.dir, rel)),
    { strings: false },
  );
  for (const rel of step.files.filter((rel) => rel.startsWith("src/") && isCode(rel) && !isTestFile(rel))) {
    if (!files.has(path.join(step.dir, rel))) {
      problems.push(
        `steps/${step.name}/${rel}: reached from neither src/main.ts, src/server.ts ` +
          `nor a program in lesson.json; remove it, or move a test helper to src/test/`,
      );
    }
  }
}

// Lesson code runs on Linux and macOS alike, and /proc is Linux's: only tests, their helpers and fixtures may read it.
// The check is on the text, so an import of "./processes.ts" counts too: a name that does not suggest /proc is better.
/** No file of the step outside its tests, src/test/ and src/fixtures/ contains the text "/proc". */
export function checkPortable(step, problems) {
  for (const rel of step.files.filter((rel) => !isTestFile(rel))) {
    if (readStepFile(step.dir, rel)?.includes("/proc")) {
      problems.push(
        `steps/${step.name}/${rel}: contains "/proc", which macOS lacks; use ` +
          `what Linux and macOS share (ps, process.kill), or move it into a test`,
      );
    }
  }
}

/**
 * Source lines step `step` adds over `prev` (all of its source lines for the first step). A file in `restored` (a
 * restored file, restored.mjs) adds none: it comes back unchanged, and its lines were counted where it was written.
 */
export function addedSourceLines(prev, step, restored = new Map()) {
  const count = (rel) =>
    diffLines(prev ? (readStepFile(prev.dir, rel) ?? "") : "", readStepFile(step.dir, rel) ?? "")
      .filter((part) => part.added)
      .reduce((sum, part) => sum + part.count, 0);
  return step.files.filter((rel) => isSource(rel) && !restored.has(rel)).reduce((sum, rel) => sum + count(rel), 0);
}

/** A restored file that is not a test is a `given` file of the step, so its exercise copies it instead of a blank. */
export function checkRestoredGiven(steps, errors) {
  steps.forEach((step, i) => {
    const given = Array.isArray(step.lesson.given) ? step.lesson.given : [];
    for (const [rel, from] of restoredFiles(steps.slice(0, i), step)) {
      if (isTestFile(rel) || given.includes(rel)) continue;
      errors.push(
        `steps/${step.name}/${rel}: restored unchanged from steps/${from.name} (steps/${steps[i - 1].name} has none), ` +
          `so it teaches nothing new: list it in lesson.json "given" so that the exercise copies it`,
      );
    }
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * No step adds over MAX_ADDED_LINES, at most OVERSIZED_STEPS_ALLOWED add over OVERSIZED_ADDED_LINES (each saying why in
 * its lesson.json), and the median stays within MEDIAN_ADDED_LINES.
 */
export function checkSizes(steps, problems) {
  const added = steps.map((step, i) => addedSourceLines(steps[i - 1], step, restoredFiles(steps.slice(0, i), step)));
  if (median(added) > MEDIAN_ADDED_LINES) {
    problems.push(
      `steps/: the median step adds ${median(added)} lines of source ` +
        `(rule: at most ${MEDIAN_ADDED_LINES}; per step: ${added.join(", ")})`,
    );
  }
  const oversized = [];
  steps.forEach((step, i) => {
    const where = `steps/${step.name}`;
    const over = added[i] > OVERSIZED_ADDED_LINES;
    if (over) oversized.push(step.name);
    if (added[i] > MAX_ADDED_LINES)
      problems.push(`${where} adds ${added[i]} lines of source (rule: at most ${MAX_ADDED_LINES}); split it`);
    else if (over && !step.lesson.reason)
      problems.push(
        `${where} adds ${added[i]} lines of source (over ` +
          `${OVERSIZED_ADDED_LINES}); say why in lesson.json "reason", or split it`,
      );
    if (!over && step.lesson.reason)
      problems.push(`${where}/lesson.json: reason is given, but the step adds only ${added[i]} lines`);
  });
  if (oversized.length > OVERSIZED_STEPS_ALLOWED) {
    problems.push(
      `steps/: ${oversized.length} steps add over ${OVERSIZED_ADDED_LINES} ` +
        `lines (${oversized.join(", ")}); at most ${OVERSIZED_STEPS_ALLOWED} may`,
    );
  }
}
