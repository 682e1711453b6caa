// `N --solution`: the unified diff from the learner's folder to step N, drawn as --diff draws a step's. Tests show
// only where the learner's copies differ; the exercise's own tsconfig.json is never part of it.
import { compareSteps } from "../diff.mjs";
import { renderFileDiff, useColour } from "../diff-render.mjs";
import { folderOf, shown } from "./state.mjs";

// The exercise writes its own tsconfig.json (noUnusedLocals off); step N's is not the learner's to copy.
const GENERATED = new Set(["tsconfig.json"]);

/** The diff as text; a folder that is step N already gets one line saying so. */
export function renderSolution(step, { colour = useColour() } = {}) {
  const mine = { dir: folderOf(step), label: shown(folderOf(step)) };
  const changes = compareSteps(mine, step).filter((change) => !GENERATED.has(change.path));
  if (changes.length === 0) return `${mine.label}/ is step ${step.id} already: no line differs.\n`;
  return `${changes.flatMap((change) => renderFileDiff(change, mine, step, { colour })).join("\n")}\n`;
}

export function showSolution(step) {
  process.stdout.write(renderSolution(step));
  return 0;
}
