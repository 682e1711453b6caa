// Where a learner's exercises live and what the runner remembers of each: the folder, its state file, the digests that
// tell a changed step or a changed folder apart, and the record of check:exercises (docs/.exercises.json).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { listStepFiles, readJson, STEPS_DIR } from "../shared/repo.mjs";

// The repository holds steps/, docs/ and exercises/ side by side; a test's fixture folder is laid out the same way.
const ROOT = path.dirname(STEPS_DIR);
export const DOCS_DIR = path.join(ROOT, "docs");
export const EXERCISES_DIR = process.env.LEARN_MCP_EXERCISES_DIR
  ? path.resolve(process.env.LEARN_MCP_EXERCISES_DIR)
  : path.join(ROOT, "exercises");
export const RECORD_FILE = path.join(DOCS_DIR, ".exercises.json");

export const folderOf = (step) => path.join(EXERCISES_DIR, step.folder);
export const stateFileOf = (step) => path.join(EXERCISES_DIR, ".state", `${step.folder}.json`);
export const chapterOf = (step) => path.join(DOCS_DIR, `${step.folder}.md`);

//#region renumbered
const slugOf = (folder) => folder.replace(/^\d\d-/, "");

/**
 * Exercise folders are matched to steps by slug: a step inserted before one the learner worked on renumbers it, and
 * the folder (with its state file) follows it to the new number. Only a folder that names no current step and is the
 * one of its slug moves; returns a line for each move.
 */
export function adoptRenumbered(steps) {
  if (!existsSync(EXERCISES_DIR)) return [];
  const current = new Set(steps.map((step) => step.folder));
  const left = readdirSync(EXERCISES_DIR).filter((name) => /^\d\d-/.test(name) && !current.has(name));
  const moves = [];
  for (const step of steps) {
    const found = left.filter((name) => slugOf(name) === slugOf(step.folder));
    if (found.length !== 1 || existsSync(folderOf(step))) continue;
    const from = {
      dir: path.join(EXERCISES_DIR, found[0]),
      state: path.join(EXERCISES_DIR, ".state", `${found[0]}.json`),
    };
    renameSync(from.dir, folderOf(step));
    if (existsSync(from.state) && !existsSync(stateFileOf(step))) renameSync(from.state, stateFileOf(step));
    moves.push(
      `Renamed ${shown(from.dir)}/ to ${shown(folderOf(step))}/: step ${slugOf(step.folder)} is ${step.id} now.`,
    );
  }
  return moves;
}
//#endregion

/** A path as the learner would type it from where they are: `exercises/02-x/` rather than an absolute one. */
export function shown(file) {
  const rel = path.relative(process.cwd(), file);
  return rel === "" ? "." : rel.startsWith("..") ? file : rel;
}

//#region digests
// Each file adds its path and its bytes, with separators no path contains, so moving a byte between files shows.
function digestOf(entries) {
  const hash = createHash("sha256");
  for (const [name, file] of entries)
    hash
      .update(`${name}\0`)
      .update(existsSync(file) ? readFileSync(file) : "")
      .update("\0");
  return hash.digest("hex");
}

const filesOf = (dir, label) =>
  [...listStepFiles(dir), "lesson.json"].map((rel) => [`${label}/${rel}`, path.join(dir, rel)]);

/** What an exercise is made from: step N's files and the previous step's, lesson.json included. */
export const stepDigest = (step, previous) =>
  digestOf([...filesOf(step.dir, "step"), ...(previous ? filesOf(previous.dir, "previous") : [])]);

/** The learner's folder as a check sees it: every file but node_modules. */
export const folderDigest = (dir) => digestOf(listStepFiles(dir).map((rel) => [rel, path.join(dir, rel)]));
//#endregion

//#region state
/** The state file of a step's exercise, or undefined when there is none (or it cannot be read). */
export function readState(step) {
  const file = stateFileOf(step);
  if (!existsSync(file)) return undefined;
  const state = readJson(file);
  return state.error || !Array.isArray(state.blanks) ? undefined : state;
}

/** Writes the state through a temporary file, so that an interrupted write never leaves half a file. */
export function writeState(step, state) {
  const file = stateFileOf(step);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** The blanks as a state file keeps them: the plan's, without the functions. */
export const stateBlanks = (blanks) => blanks.map((blank) => ({ ...blank }));
//#endregion

//#region record
/**
 * The tests check:exercises saw failing with only `blankId` left, or undefined when the record says nothing of it.
 * A missing or unreadable record is no error: every blank's tests are then unknown.
 */
export function recordedTests(step) {
  const entry = existsSync(RECORD_FILE) ? readJson(RECORD_FILE)[step.folder] : undefined;
  const blanks = entry?.blanks && typeof entry.blanks === "object" ? entry.blanks : {};
  return (blankId) => (Array.isArray(blanks[blankId]?.tests) ? blanks[blankId].tests : undefined);
}
//#endregion
