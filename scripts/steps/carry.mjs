// `pnpm step:carry <N> <file>`: carries the change made to one file of step N (its working copy against its copy at
// HEAD) into every later step. Rule: a later copy equal to step N's old copy takes the new one; any other copy takes
// the change as a patch only when every context line matches; the rest are left alone and named.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applyPatch, createPatch } from "diff";
import { comparableOld, findStep, listSteps, readStepFile, REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const USAGE = `usage: pnpm step:carry <N> <file> [--base REV] [--root DIR]

Carries the change made to <file> (a path inside the step folder, e.g. src/server.ts) in step N into every later step.
The change is step N's working copy against its copy at REV (default HEAD; absent there: a new file; absent on disk: a
removal). Each later step, in order:
  - whose copy equals step N's old copy (package.json: name line aside; no copy equals no copy) takes the new copy;
  - whose copy differs takes the change as a patch when every context line of it matches (reported as patched);
  - otherwise is left alone and named, with a non-zero exit: carry the change there by hand.
Then \`pnpm check:steps --fix\` brings each lesson.json's changes up to date.`;

function parseArgs(argv) {
  const options = { base: "HEAD", root: REPO_ROOT };
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--base" || argv[i] === "--root") options[argv[i].slice(2)] = argv[++i];
    else if (argv[i] === "--help" || argv[i] === "-h") return { help: true };
    else positional.push(argv[i]);
  }
  if (positional.length !== 2 || options.base === undefined || options.root === undefined) return { help: true };
  const [n, file] = positional;
  return { ...options, n, file: path.posix.normalize(file.replace(/^\.\//, "")), root: path.resolve(options.root) };
}

/** The text of `rel` in commit `base`, null when that commit has no such file; throws when git cannot answer. */
function committedCopy(root, rel, base) {
  const git = (...args) => spawnSync("git", ["-C", root, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  const listed = git("ls-tree", "--name-only", base, "--", rel);
  if (listed.status !== 0) throw new Error(`git ls-tree ${base}: ${listed.stderr.trim()}`);
  if (listed.stdout.trim() === "") return null;
  const shown = git("show", `${base}:./${rel}`);
  if (shown.status !== 0) throw new Error(`git show ${base}:${rel}: ${shown.stderr.trim()}`);
  return shown.stdout;
}

/** What to do with one later step's copy `text`: `{ outcome, text }`, where a null text removes the file. */
function carryInto(rel, text, before, after) {
  if (comparableOld(rel, before, text) === text) return { outcome: "replaced", text: comparableOld(rel, after, text) };
  if (text === null) return { outcome: "no copy" };
  if (before === null || after === null) return { outcome: "differs" };
  const patched = applyPatch(text, createPatch(rel, before, after));
  return patched === false ? { outcome: "differs" } : { outcome: "patched", text: patched };
}

const SAID = {
  replaced: "was identical to the old copy: now the new copy",
  patched: "differed: the change applied as a patch (read its --diff)",
  "no copy": "has no copy: left alone",
  differs: "differs and the change does not apply: left alone, carry it by hand",
  same: "already has the new copy",
};

function write(file, text) {
  if (text === null) return rmSync(file, { force: true });
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Carries the change; returns `{ lines, conflicts }`, one line per later step. */
function carry({ root, n, file: given, base }) {
  const steps = listSteps(path.join(root, "steps"));
  const step = findStep(steps, n);
  if (step === undefined) throw new Error(`no step ${n}`);
  const inStep = `steps/${step.folder}/`; // the path as the repository names it is accepted too
  const file = given.startsWith(inStep) ? given.slice(inStep.length) : given;
  if (file.startsWith("../") || path.posix.isAbsolute(file)) throw new Error(`${file} is not a path inside the step`);
  const before = committedCopy(root, `steps/${step.folder}/${file}`, base);
  const after = readStepFile(step.dir, file);
  if (before === after) throw new Error(`steps/${step.folder}/${file} is the same as at ${base}: nothing to carry`);
  const lines = [`step:carry: steps/${step.folder}/${file}, its copy at ${base} -> its working copy`];
  let conflicts = 0;
  for (const later of steps.filter((other) => other.number > step.number)) {
    const text = readStepFile(later.dir, file);
    const same = comparableOld(file, after, text) === text;
    const result = same ? { outcome: "same" } : carryInto(file, text, before, after);
    if (result.text !== undefined) write(path.join(later.dir, file), result.text);
    if (result.outcome === "differs") conflicts++;
    lines.push(`  steps/${later.folder}: ${SAID[result.outcome]}`);
  }
  return { lines, conflicts };
}

const args = parseArgs(process.argv.slice(2));
if (args.help) {
  console.log(USAGE);
  process.exitCode = process.argv.includes("--help") || process.argv.includes("-h") ? 0 : 2;
} else {
  try {
    const { lines, conflicts } = carry(args);
    lines.forEach((line) => console.log(line));
    console.log(conflicts > 0 ? `step:carry: ${conflicts} step(s) left to carry by hand` : "step:carry: done");
    console.log("then: pnpm check:steps --fix");
    process.exitCode = conflicts > 0 ? 1 : 0;
  } catch (error) {
    console.error(`step:carry: ${error.message}`);
    process.exitCode = 2;
  }
}
