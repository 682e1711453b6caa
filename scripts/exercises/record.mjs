// docs/.exercises.json: per step, what check:exercises found and the digest of everything that decides it. An entry
// whose digest still matches the tree is taken as it is; a gap is recorded too (a blank with no failing test), so the
// test command keeps failing on it until a test is written, and writing one changes the digest.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { closure } from "../checks/closure.mjs";
import { isStepTest } from "../test/select.mjs";
import { reach } from "../test/inputs.mjs";
import { byCodeUnit, listStepFiles, REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const NAME_LINE = /^[ \t]*"name"[ \t]*:.*$/m;
const ROLE_FOLDER = /"\d\d-(?=[a-z0-9-]+\/)/g;

export const RECORD = path.join(REPO_ROOT, "docs", ".exercises.json");
// The generator is exercise.mjs and what it imports; the rest of the folder (--from-mine, tests) makes no exercise
// here.
const GENERATOR = path.join(REPO_ROOT, "steps", "runner", "exercise", "exercise.mjs");
export const nodeMajor = () => Number(process.versions.node.split(".")[0]);

/** step folder -> entry; a missing or unreadable record records nothing (every step is then stale). */
export function readRecord(file = RECORD) {
  if (!existsSync(file)) return {};
  try {
    const json = JSON.parse(readFileSync(file, "utf8"));
    return json !== null && typeof json === "object" && !Array.isArray(json) ? json : {};
  } catch {
    return {};
  }
}

/** Writes the record sorted by step; returns whether the file changed. */
export function writeRecord(record, file = RECORD) {
  const sorted = Object.fromEntries(Object.entries(record).sort(([a], [b]) => byCodeUnit(a, b)));
  const text = `${JSON.stringify(sorted, null, 2)}\n`;
  if (existsSync(file) && readFileSync(file, "utf8") === text) return false;
  writeFileSync(file, text);
  return true;
}

/**
 * The step's test files (step-relative), each with the absolute paths it reaches (role programs included) and the
 * smaller set it imports, in its own process.
 */
export function testsReach(step, root = REPO_ROOT) {
  return listStepFiles(step.dir)
    .filter(isStepTest)
    .map((rel) => {
      const file = path.join(step.dir, rel);
      const { files, missing } = reach(file, root);
      return { rel, files, missing, imports: closure([file], { strings: false }).files };
    });
}

const version = (name) =>
  JSON.parse(readFileSync(path.join(REPO_ROOT, "node_modules", name, "package.json"), "utf8")).version;

/**
 * The digest of a step's inputs: its files and lesson.json, the previous step's files, the exercise generator and
 * what it imports, what the step's tests reach, and the TypeScript and vitest versions that type-check and run it.
 * The checker's own code is left out on purpose: changing it is followed by `--all`, not by every step going stale.
 */
export function inputsDigest(step, previous, reached, root = REPO_ROOT) {
  const files = new Set([path.join(step.dir, "lesson.json")]);
  for (const dir of [step.dir, previous?.dir].filter(Boolean))
    for (const rel of listStepFiles(dir)) files.add(path.join(dir, rel));
  for (const file of closure([GENERATOR], { strings: false }).files) files.add(file);
  const missing = new Set();
  for (const test of reached) {
    test.files.forEach((file) => files.add(file));
    test.missing.forEach((file) => missing.add(file));
  }
  const hash = createHash("sha256");
  hash.update(`typescript@${version("typescript")} vitest@${version("vitest")}\n`);
  // Keyed by slug, not by folder, and with a package's name line left out: renumbering steps (step:new) changes no
  // result, so it leaves their entries fresh.
  const keyOf = (file) =>
    path
      .relative(root, file)
      .split(path.sep)
      .join("/")
      .replace(/(^|\/)steps\/\d\d-/, "$1steps/");
  // The role table names programs by folder; read by slug, it too stays the same when only numbers change.
  const bytesOf = (file) => {
    if (path.basename(file) === "package.json") return readFileSync(file, "utf8").replace(NAME_LINE, "");
    if (path.basename(file) === "roles.json") return readFileSync(file, "utf8").replace(ROLE_FOLDER, '"');
    return readFileSync(file);
  };
  const entries = [...files].map((file) => [
    keyOf(file),
    existsSync(file) ? createHash("sha256").update(bytesOf(file)).digest("hex") : "missing",
  ]);
  for (const file of [...missing].filter((file) => !files.has(file))) entries.push([keyOf(file), "missing"]);
  for (const [key, content] of entries.sort(([a], [b]) => byCodeUnit(a, b))) hash.update(`${key}\0${content}\n`);
  return hash.digest("hex");
}

/** What an entry says is wrong: gaps (blanks no test notices) and an exercise whose tests pass untouched. */
export function entryProblems(folder, entry) {
  const problems = [];
  if (entry.untouched?.tests?.length === 0) problems.push({ step: folder, kind: "untouched" });
  for (const [blank, { tests, ran }] of Object.entries(entry.blanks ?? {})) {
    if (tests.length === 0) problems.push({ step: folder, kind: "gap", blank, ran: ran ?? [] });
  }
  return problems;
}
