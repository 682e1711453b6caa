// `node scripts/checks/check-steps.mjs [--root DIR] [--fix]`: checks the conventions of CONTRIBUTING.md's "A step" on
// disk; --fix first writes what is derivable (fix-changes.mjs). Every problem is collected before exiting, so one run
// lists them all; only the style guide's file and function sizes warn.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import {
  changeOf,
  listStepFiles,
  readJson,
  readStepFile,
  REPO_ROOT,
  STEP_FOLDER,
} from "../../steps/runner/shared/repo.mjs";
import {
  checkLesson,
  checkPartOrder,
  checkPortable,
  checkReach,
  checkRestoredGiven,
  checkSizes,
} from "./lesson-rules.mjs";
import { checkNaming } from "./naming.mjs";
import { checkCommentWidth } from "./comment-width.mjs";
import { checkStepNumbers } from "./step-numbers.mjs";
import { checkNames } from "./names.mjs";
import { fixChanges } from "./fix-changes.mjs";
import { checkPnpmVersion, checkRunnerFlags } from "./shown-commands.mjs";
import { sizeWarnings, toolingFiles, toolingSizeWarnings } from "./size-guides.mjs";

const SCRIPTS = ["start", "test", "typecheck"];
const DEPENDENCY_KEYS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"];

function findSteps(root, errors) {
  const names = readdirSync(path.join(root, "steps"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  for (const name of names.filter((name) => !STEP_FOLDER.test(name))) {
    errors.push(`steps/${name}: folder name must match NN-slug (lower case)`);
  }
  const steps = names
    .filter((name) => STEP_FOLDER.test(name))
    .map((name) => ({ name, number: Number(name.slice(0, 2)) }));
  steps.forEach((step, i) => {
    const previous = steps[i - 1];
    if (step.number === previous?.number)
      errors.push(`steps/${step.name}: shares its number with steps/${previous.name}`);
    else if (step.number !== i + 1) {
      const expected = String(i + 1).padStart(2, "0");
      errors.push(`steps/${step.name}: steps are numbered from 01 without gaps; expected ${expected} here`);
    }
  });
  return steps.map((step) => ({ ...step, dir: path.join(root, "steps", step.name) }));
}

function checkChapters(root, steps, errors, warnings) {
  const docsDir = path.join(root, "docs");
  const docs = existsSync(docsDir) ? readdirSync(docsDir).filter((name) => name.endsWith(".md")) : [];
  for (const step of steps) {
    if (!docs.includes(`${step.name}.md`)) errors.push(`steps/${step.name}: chapter docs/${step.name}.md is missing`);
  }
  for (const doc of docs) {
    if (steps.some((step) => `${step.name}.md` === doc) || doc.startsWith("appendix-")) continue;
    if (/^\d\d-/.test(doc)) errors.push(`docs/${doc}: no step folder steps/${doc.slice(0, -3)} has this name`);
    else warnings.push(`docs/${doc}: neither a chapter (NN-slug.md) nor an appendix (appendix-*.md)`);
  }
}

// package.json differs from the previous step's only in its name and its dependencies; scripts match step 01's.
function checkPackage(step, prev, pkg, errors) {
  const where = `steps/${step.name}/package.json`;
  if (pkg.error) return errors.push(`${where}: cannot be read: ${pkg.error}`);
  if (pkg.name !== `@learn-mcp/${step.name}`) {
    errors.push(`${where}: name must be "@learn-mcp/${step.name}", not ${JSON.stringify(pkg.name)}`);
  }
  for (const script of SCRIPTS) if (!pkg.scripts?.[script]) errors.push(`${where}: scripts.${script} is missing`);
  if (prev === undefined || prev.pkg.error) return;
  const rest = (json) =>
    JSON.stringify({ ...json, name: undefined, ...Object.fromEntries(DEPENDENCY_KEYS.map((key) => [key, undefined])) });
  if (rest(pkg) !== rest(prev.pkg)) {
    errors.push(`${where}: differs from steps/${prev.name}'s in more than its name and dependencies`);
  }
}

function checkSameTsconfig(steps, errors) {
  const tsconfig = readStepFile(steps[0].dir, "tsconfig.json");
  if (tsconfig === null) errors.push(`steps/${steps[0].name}: tsconfig.json is missing`);
  for (const step of steps.slice(1)) {
    if (readStepFile(step.dir, "tsconfig.json") !== tsconfig) {
      errors.push(`steps/${step.name}/tsconfig.json: differs from steps/${steps[0].name}'s`);
    }
  }
}

// The declared list and the real differences must agree both ways.
function checkChanges(prev, step, files, changes, errors) {
  const where = `steps/${step.name}`;
  if (prev === undefined) {
    if (changes.length > 0) errors.push(`${where}/lesson.json: step 01 must list nothing in changes`);
    return;
  }
  for (const rel of [...new Set([...listStepFiles(prev.dir), ...files, ...changes])].sort()) {
    const change = changeOf(prev.dir, step.dir, rel);
    const declared = changes.includes(rel);
    if (change && !declared)
      errors.push(`${where}/${rel}: ${describe(change, prev)} but is not listed in lesson.json changes`);
    if (declared && change === undefined) {
      const exists = readStepFile(step.dir, rel) !== null || readStepFile(prev.dir, rel) !== null;
      const why = exists ? `is identical to steps/${prev.name}'s` : "exists in neither step";
      errors.push(`${where}/lesson.json: changes lists "${rel}", which ${why} (a stale declaration)`);
    }
  }
}

function describe(change, prev) {
  if (change === "new") return `is new since steps/${prev.name}`;
  if (change === "removed") return `was removed since steps/${prev.name}`;
  return `differs from steps/${prev.name}'s`;
}

export function checkSteps(root) {
  const errors = [];
  const warnings = [];
  const steps = findSteps(root, errors);
  if (steps.length === 0) return { steps, errors: [...errors, "steps/: no step folders found"], warnings };
  checkChapters(root, steps, errors, warnings);
  steps.forEach((step) => {
    step.pkg = readJson(path.join(step.dir, "package.json"));
    step.files = listStepFiles(step.dir);
    step.lesson = checkLesson(step, errors);
  });
  steps.forEach((step, i) => {
    const prev = steps[i - 1];
    checkPackage(step, prev, step.pkg, errors);
    if (!step.files.includes("src/main.ts"))
      errors.push(`steps/${step.name}: src/main.ts (the runner's demo) is missing`);
    checkChanges(prev, step, step.files, step.lesson.changes, errors);
    checkReach(step, errors);
    checkPortable(step, errors);
    warnings.push(...sizeWarnings(step.name, step.dir, step.files));
    checkCommentWidth(`steps/${step.name}`, step.dir, step.files, errors);
    checkStepNumbers(step, errors);
  });
  for (const tooling of ["steps/runner", "scripts"]) {
    warnings.push(...toolingSizeWarnings(root, tooling));
    checkCommentWidth(tooling, path.join(root, tooling), toolingFiles(root, tooling), errors);
  }
  checkPartOrder(steps, errors);
  checkSizes(steps, errors);
  checkRestoredGiven(steps, errors);
  checkSameTsconfig(steps, errors);
  checkNaming(root, steps, errors);
  checkNames(root, steps, errors);
  checkPnpmVersion(root, errors);
  checkRunnerFlags(root, errors);
  return { steps, errors, warnings };
}

const rootAt = process.argv.indexOf("--root");
const root = rootAt === -1 ? REPO_ROOT : path.resolve(process.argv[rootAt + 1]);
if (process.argv.includes("--fix"))
  for (const line of fixChanges(findSteps(root, []), { write: true })) console.log(line);
const { steps, errors, warnings } = checkSteps(root);
for (const warning of warnings) console.log(`warning: ${warning}`);
// Errors share stdout with the summary so that they stay in order when piped.
for (const error of errors) console.log(`error: ${error}`);
console.log(`check-steps: ${steps.length} steps, ${errors.length} errors, ${warnings.length} warnings`);
process.exitCode = errors.length > 0 ? 1 : 0;
