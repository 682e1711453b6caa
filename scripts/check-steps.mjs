// `node scripts/check-steps.mjs [--root DIR]`: checks the conventions of CONTRIBUTING.md's "A step" on disk.
// Every problem is collected before exiting, so one run lists them all; size guides only warn.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./normalize.mjs";
import { sizeWarnings } from "./size-guides.mjs";
import { changeOf, listFiles, readJson, readText } from "./step-files.mjs";

const STEP = /^(\d\d)-[a-z0-9-]+$/;
const SCRIPTS = ["start", "test", "typecheck"];
const ENTRY_NAMES = new Set(["main.ts", "server.ts", "client.ts", "cli.ts"]);

function findSteps(root, errors) {
  const names = readdirSync(path.join(root, "steps"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  for (const name of names.filter((name) => !STEP.test(name))) {
    errors.push(`steps/${name}: folder name must match NN-slug (lower case)`);
  }
  const steps = names.filter((name) => STEP.test(name)).map((name) => ({ name, number: Number(name.slice(0, 2)) }));
  steps.forEach((step, i) => {
    const expected = String(i + 1).padStart(2, "0");
    const previous = steps[i - 1];
    if (step.number === previous?.number) errors.push(`steps/${step.name}: shares its number with steps/${previous.name}`);
    else if (step.number !== i + 1) {
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
    const step = steps.find((candidate) => `${candidate.name}.md` === doc);
    if (step || doc.startsWith("appendix-")) continue;
    if (/^\d\d-/.test(doc)) errors.push(`docs/${doc}: no step folder steps/${doc.slice(0, -3)} has this name`);
    else warnings.push(`docs/${doc}: neither a chapter (NN-slug.md) nor an appendix (appendix-*.md)`);
  }
}

function checkPackage(step, pkg, errors) {
  const where = `steps/${step.name}/package.json`;
  if (pkg.error) return errors.push(`${where}: cannot be read: ${pkg.error}`);
  if (pkg.name !== `@learn-mcp/${step.name}`) {
    errors.push(`${where}: name must be "@learn-mcp/${step.name}", not ${JSON.stringify(pkg.name)}`);
  }
  if (!pkg.description?.trim?.()) errors.push(`${where}: description is missing`);
  const changes = pkg.lesson?.changes;
  if (!Array.isArray(changes) || changes.some((change) => typeof change !== "string")) {
    errors.push(`${where}: lesson.changes must be an array of paths`);
  } else {
    const odd = (change) => path.posix.normalize(change) !== change || /^(\.\.)?\//.test(change);
    for (const change of changes.filter(odd)) {
      errors.push(`${where}: lesson.changes entry "${change}" must be a plain path relative to the step folder`);
    }
    if (new Set(changes).size !== changes.length) errors.push(`${where}: lesson.changes lists a path twice`);
  }
  for (const script of SCRIPTS) if (!pkg.scripts?.[script]) errors.push(`${where}: scripts.${script} is missing`);
}

// Scripts and tsconfig.json are compared with step 01's: every step runs the same way.
function checkSameEverywhere(steps, packages, errors) {
  const first = steps[0];
  const scripts = JSON.stringify(packages[0].scripts ?? {});
  const tsconfig = readText(first.dir, "tsconfig.json");
  if (tsconfig === "") errors.push(`steps/${first.name}: tsconfig.json is missing`);
  steps.slice(1).forEach((step, i) => {
    const [where, theirs] = [`steps/${step.name}`, `steps/${first.name}'s`];
    const sameScripts = JSON.stringify(packages[i + 1].scripts ?? {}) === scripts;
    if (!sameScripts) errors.push(`${where}/package.json: scripts differ from ${theirs}`);
    if (readText(step.dir, "tsconfig.json") !== tsconfig) errors.push(`${where}/tsconfig.json: differs from ${theirs}`);
  });
}

function checkEntries(step, files, errors) {
  if (!files.includes("src/main.ts")) errors.push(`steps/${step.name}: src/main.ts (the runner's demo) is missing`);
  const misplaced = (rel) => ENTRY_NAMES.has(path.posix.basename(rel)) && path.posix.dirname(rel) !== "src";
  for (const rel of files.filter(misplaced)) {
    errors.push(`steps/${step.name}/${rel}: entry files (${[...ENTRY_NAMES].join(", ")}) belong directly in src/`);
  }
}

// The declared list and the real differences must agree both ways.
function checkChanges(prev, step, files, changes, errors) {
  const where = `steps/${step.name}`;
  if (prev === undefined) {
    if (changes.length > 0) errors.push(`${where}/package.json: step 01 must list nothing in lesson.changes`);
    return;
  }
  const all = [...new Set([...listFiles(prev.dir), ...files, ...changes])].sort();
  for (const rel of all) {
    const change = changeOf(prev.dir, step.dir, rel);
    const declared = changes.includes(rel);
    if (change && change !== "missing" && !declared) {
      errors.push(`${where}/${rel}: ${describe(change, prev)} but is not listed in lesson.changes`);
    }
    if (declared && (change === undefined || change === "missing")) {
      const why = change ? "exists in neither step" : `is identical to steps/${prev.name}'s`;
      errors.push(`${where}/package.json: lesson.changes lists "${rel}", which ${why} (a stale declaration)`);
    }
  }
}

function describe(change, prev) {
  if (change === "new") return `is new since steps/${prev.name}`;
  if (change === "removed") return `was removed since steps/${prev.name}`;
  return `differs from steps/${prev.name}'s`;
}

function checkSteps(root) {
  const errors = [];
  const warnings = [];
  const steps = findSteps(root, errors);
  if (steps.length === 0) return { steps, errors: [...errors, "steps/: no step folders found"], warnings };
  checkChapters(root, steps, errors, warnings);
  const packages = steps.map((step) => readJson(path.join(step.dir, "package.json")));
  steps.forEach((step, i) => {
    checkPackage(step, packages[i], errors);
    const files = listFiles(step.dir);
    const changes = Array.isArray(packages[i].lesson?.changes) ? packages[i].lesson.changes : [];
    checkEntries(step, files, errors);
    checkChanges(steps[i - 1], step, files, changes, errors);
    warnings.push(...sizeWarnings(step.name, step.dir, files, steps[i - 1]?.dir, changes));
  });
  checkSameEverywhere(steps, packages, errors);
  return { steps, errors, warnings };
}

const rootAt = process.argv.indexOf("--root");
const root = rootAt === -1 ? REPO_ROOT : path.resolve(process.argv[rootAt + 1]);
const { steps, errors, warnings } = checkSteps(root);
for (const warning of warnings) console.log(`warning: ${warning}`);
// Errors share stdout with the summary so that they stay in order when piped.
for (const error of errors) console.log(`error: ${error}`);
console.log(`check-steps: ${steps.length} steps, ${errors.length} errors, ${warnings.length} warnings`);
process.exitCode = errors.length > 0 ? 1 : 0;
