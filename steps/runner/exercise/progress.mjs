// `--progress`: one line per step from 02 on with its exercise's state, read from the folders and their state files.
// A folder whose content changed since its last check is checked again, quietly: the line is all that shows.
import { existsSync } from "node:fs";
import { checkExercise } from "./check.mjs";
import { folderDigest, folderOf, readState, stepDigest } from "./state.mjs";

const WIDTH = "demo matching".length;

/** "not started", "started", "tests passing" or "demo matching", from a state's last check. */
export function stateWord(lastCheck) {
  if (lastCheck?.tests !== "pass") return "started";
  return lastCheck.demo === "match" ? "demo matching" : "tests passing";
}

/** The line of one step, checking it again first when its folder changed since its last check. */
async function progressLine(step, previous) {
  const folder = folderOf(step);
  const title = step.title.split(":")[0];
  if (!existsSync(folder)) return `${step.id}  ${"not started".padEnd(WIDTH)}  ${title}`;
  let state = readState(step);
  let rechecked = "";
  if (state?.lastCheck?.digest !== folderDigest(folder)) {
    await checkExercise(step, previous, { print: () => {} });
    state = readState(step);
    rechecked = " (checked now)";
  }
  const stale =
    state && state.stepDigest !== stepDigest(step, previous) ? `; step ${step.id} changed since, see --reset` : "";
  return `${step.id}  ${stateWord(state?.lastCheck).padEnd(WIDTH)}  ${title}${rechecked}${stale}`;
}

export async function showProgress(steps) {
  for (let i = 1; i < steps.length; i++) console.log(await progressLine(steps[i], steps[i - 1]));
  return 0;
}
