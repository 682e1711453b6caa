// The runner's view of the steps: the shared listing, plus what running a demo needs (tsx, an install).
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "./shared/repo.mjs";

export { findStep, listSteps, previousStep, STEPS_DIR as stepsDir } from "./shared/repo.mjs";

/** The absolute URL of tsx's ESM loader as the step itself would resolve it, or undefined when not installed. */
export function resolveTsxLoader(step) {
  try {
    const require = createRequire(join(step.dir, "package.json"));
    return pathToFileURL(require.resolve("tsx")).href;
  } catch {
    return undefined;
  }
}

export const hasNodeModules = () => existsSync(join(REPO_ROOT, "node_modules"));
