// Finds the steps: every folder of steps/ named NN-slug, titled by its package.json "description".
// Test-only: LEARN_MCP_STEPS_DIR points the runner at a fixture folder laid out like steps/.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const runnerDir = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(runnerDir, "..", "..");
export const stepsDir = process.env.LEARN_MCP_STEPS_DIR
  ? resolve(process.env.LEARN_MCP_STEPS_DIR)
  : resolve(runnerDir, "..");

const STEP_FOLDER = /^(\d\d)-/;

export function listSteps() {
  const steps = [];
  for (const entry of readdirSync(stepsDir, { withFileTypes: true })) {
    const match = STEP_FOLDER.exec(entry.name);
    if (!entry.isDirectory() || !match) continue;
    const dir = join(stepsDir, entry.name);
    steps.push({ id: match[1], number: Number(match[1]), folder: entry.name, dir, title: readTitle(dir) });
  }
  // Plain code-unit order: the same on every machine, unlike localeCompare.
  return steps.sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
}

function readTitle(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).description ?? "(no description)";
  } catch {
    return "(no package.json)";
  }
}

/** "1", "01" and "001" all name step 01; anything else names no step. */
export function findStep(steps, arg) {
  if (!/^\d+$/.test(arg)) return undefined;
  return steps.find((step) => step.number === Number(arg));
}

/** The step just before `step`, or undefined for the first one. */
export function previousStep(steps, step) {
  return steps.filter((other) => other.number < step.number).at(-1);
}

/** The absolute URL of tsx's ESM loader as the step itself would resolve it, or undefined when not installed. */
export function resolveTsxLoader(step) {
  try {
    const require = createRequire(join(step.dir, "package.json"));
    return pathToFileURL(require.resolve("tsx")).href;
  } catch {
    return undefined;
  }
}

export function hasNodeModules() {
  return existsSync(join(repoRoot, "node_modules"));
}
