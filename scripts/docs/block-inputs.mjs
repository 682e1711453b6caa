// What a command block's output depends on, as one sha256 over sorted (repo-relative path, content) pairs.
// Conservative on purpose: a file that might matter is included, and anything that cannot be worked out means "run it".
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { filesBelow } from "../checks/closure.mjs";
import { reach } from "../test/inputs.mjs";
import { findStep, isTestFile, listStepFiles, listSteps, previousStep } from "../../steps/runner/shared/repo.mjs";

/** Thrown when a block's inputs cannot be determined; the block is then run every time. */
export class Undetermined extends Error {}

// The modules that shape a command block's body. They run from this checkout whatever --root names.
const TOOL_FILES = [
  "generate.mjs",
  "docblocks.mjs",
  "normalize.mjs",
  "diff-marker.mjs",
  "regions.mjs",
  "exercise-section.mjs",
  "../shared/process-group.mjs",
];
const IGNORED = (rel) => rel.endsWith(".log") || path.posix.basename(rel) === ".DS_Store";
// A word that may be a repository path: not after "/" (absolute), "$" (a variable) or a word character.
const PATH_WORD = /(?<![\w.@/$-])[\w.@-][\w.@/-]*/g;

const sha256 = (data) => createHash("sha256").update(data).digest("hex");
const posix = (rel) => rel.split(path.sep).join("/");
const installed = (rel) => rel.split("/").includes("node_modules");

const contentOf = (file) => (existsSync(file) && statSync(file).isFile() ? sha256(readFileSync(file)) : "missing");

/** A set of inputs under `root`; `cache` maps absolute paths to content digests across blocks. */
function collector(root, cache) {
  const entries = new Map();
  const file = (abs) => {
    const rel = posix(path.relative(root, abs));
    if (rel.startsWith("../") || path.isAbsolute(rel)) throw new Undetermined(`${abs} is outside the repository`);
    // Installed files count through pnpm-lock.yaml only: which ones an install lays out (hoisted bins, shims holding
    // absolute paths) differs between installs of the same lockfile.
    if (IGNORED(rel) || installed(rel)) return;
    if (!cache.has(abs)) cache.set(abs, contentOf(abs));
    entries.set(rel, cache.get(abs));
  };
  // What a program reaches: imports, relative path strings, and the role table's programs when it reads the table.
  const program = (abs) => {
    if (!existsSync(abs) || installed(posix(path.relative(root, abs)))) return file(abs);
    const { files, missing, unresolved } = reach(abs, root);
    if (unresolved.length > 0) throw new Undetermined(unresolved[0]);
    [...files, ...missing].forEach(file);
  };
  return { entries, file, program };
}

function stepsOf(root, arg) {
  const stepsDir = path.join(root, "steps");
  if (!/^\d+$/.test(arg) || !existsSync(stepsDir)) throw new Undetermined(`no step ${arg} under ${stepsDir}`);
  const steps = listSteps(stepsDir);
  const step = findStep(steps, arg);
  if (!step) throw new Undetermined(`no step ${arg} under ${stepsDir}`);
  return { step, before: previousStep(steps, step) };
}

// lesson.json is in, although no diff shows it: the runner prints the step's title from it.
function addStep(inputs, step) {
  if (step === undefined) return;
  for (const rel of [...listStepFiles(step.dir), "lesson.json"]) inputs.file(path.join(step.dir, rel));
}

// A file new since `before` may be restored from any earlier step (steps/runner/restored.mjs): those copies count too.
function addEarlierCopies(inputs, root, step, before) {
  if (before === undefined) return;
  const fresh = listStepFiles(step.dir).filter((rel) => !listStepFiles(before.dir).includes(rel));
  for (const earlier of allSteps(root).filter((other) => other.number < before.number))
    fresh.forEach((rel) => inputs.file(path.join(earlier.dir, rel)));
}

function addRunner(inputs, root) {
  const runner = path.join(root, "steps", "runner");
  for (const file of existsSync(runner) ? filesBelow(runner) : []) {
    const rel = posix(path.relative(runner, file));
    if (!isTestFile(rel) && !rel.startsWith("test/")) inputs.file(file);
  }
  ["run.mjs", "roles.json"].forEach((name) => inputs.file(path.join(root, "steps", name)));
}

function allSteps(root) {
  const stepsDir = path.join(root, "steps");
  return existsSync(stepsDir) ? listSteps(stepsDir) : [];
}

// A demo is its step's files, what src/main.ts reaches, and the runner; `withBefore` adds the step --diff compares.
function addDemo(inputs, root, arg, { withBefore = false } = {}) {
  const { step, before } = stepsOf(root, arg);
  [step, withBefore ? before : undefined].forEach((one) => addStep(inputs, one));
  inputs.program(path.join(step.dir, "src", "main.ts"));
  addRunner(inputs, root);
}

// Each word of the command that names a file is an input with what it reaches; a folder under steps/ or scripts/
// brings all its files. `steps/run.mjs N` also brings step N's demo, and with --diff or --stat its predecessor.
function addCommand(inputs, root, command) {
  if (/(^|[\s;&|(])(cd|pushd)\s/.test(command)) throw new Undetermined("the command changes directory");
  for (const word of command.match(PATH_WORD) ?? []) {
    const rel = path.posix.normalize(word).replace(/\/+$/, "");
    const abs = path.join(root, rel);
    if (rel === "." || rel.startsWith("..") || !existsSync(abs)) continue;
    if (statSync(abs).isFile()) inputs.program(abs);
    else if (/^(steps|scripts)(\/|$)/.test(rel) && !installed(rel)) filesBelow(abs).forEach(inputs.file);
    else throw new Undetermined(`the command names the folder ${rel}`);
  }
  // Without a step number the runner lists the steps, so every step folder with its lesson.json is an input.
  for (const [, args] of command.matchAll(/steps\/run\.mjs\b([^|;&]*)/g)) {
    addRunner(inputs, root);
    const numbers = args.match(/(?<![\w-])\d+(?![\w-])/g);
    const withBefore = /--(diff|stat)\b/.test(args);
    if (numbers) numbers.forEach((arg) => addDemo(inputs, root, arg, { withBefore }));
    else allSteps(root).forEach((step) => addStep(inputs, step));
  }
}

// An exercise is planned from both steps' files, type-checked as the base tsconfig says, by the runner's exercise code.
function addExercise(inputs, root, arg) {
  const { step, before } = stepsOf(root, arg);
  [step, before].forEach((one) => addStep(inputs, one));
  for (const folder of ["exercise", "shared"]) {
    const dir = path.join(root, "steps", "runner", folder);
    for (const file of existsSync(dir) ? filesBelow(dir) : [])
      if (!isTestFile(posix(path.relative(dir, file)))) inputs.file(file);
  }
  inputs.file(path.join(root, "tsconfig.base.json"));
}

function collect({ kind, args }, inputs, root) {
  if (kind === "run") addDemo(inputs, root, args);
  else if (kind === "wire") addDemo(inputs, root, args.split(" ")[0]);
  else if (kind === "diff" || kind === "stat") {
    const { step, before } = stepsOf(root, args.split(" ")[0]);
    [step, before].forEach((one) => addStep(inputs, one));
    addEarlierCopies(inputs, root, step, before);
    addRunner(inputs, root);
  } else if (kind === "exec") addCommand(inputs, root, args);
  else if (kind === "exercise") addExercise(inputs, root, args);
  else throw new Undetermined(`"${kind}" blocks are not commands`);
}

/**
 * A reader `(block) => { digest } | { undetermined }` for the blocks of the repository at `root`, sharing one
 * cache of file contents; the digest covers the marker, pnpm-lock.yaml and the docs tool
 * (the Node major version is recorded beside it: sidecar.mjs).
 */
export function inputsReader(root) {
  const cache = new Map();
  return (block) => {
    const inputs = collector(root, cache);
    try {
      collect(block, inputs, root);
    } catch (error) {
      if (!(error instanceof Undetermined)) throw error;
      return { undetermined: error.message };
    }
    inputs.file(path.join(root, "pnpm-lock.yaml"));
    const entries = [...inputs.entries];
    entries.push([":marker", `${block.kind} ${block.args}`]);
    for (const name of TOOL_FILES) entries.push([`:tool ${name}`, contentOf(path.join(import.meta.dirname, name))]);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { digest: sha256(entries.map(([name, content]) => `${name}\0${content}\n`).join("")), entries };
  };
}
