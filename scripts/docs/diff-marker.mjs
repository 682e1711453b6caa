// `<!-- gen diff N FILE[#region] -->`: one file's part of step N's diff, or only the hunks that change one region.
// Cut in process with the runner's own modules, so the lines read exactly as `node steps/run.mjs N --diff` prints them.
import { existsSync } from "node:fs";
import path from "node:path";
import { compareSteps } from "../../steps/runner/diff.mjs";
import { renderFileDiff } from "../../steps/runner/diff-render.mjs";
import { restoredFiles } from "../../steps/runner/restored.mjs";
import { findStep, listStepFiles, listSteps, previousStep, readStepFile } from "../../steps/runner/shared/repo.mjs";
import { findRegion, isMarker } from "./regions.mjs";

const ARGS = /^(\S+) ([^\s#]+)(?:#(\S+))?$/;

/**
 * The diff text for `args` ("N FILE" or "N FILE#region") in the steps under `root`; throws an Error naming the fault.
 * Not normalised: like `gen code`, it is read from files, and normalising would rewrite code such as "50 ms".
 */
export function fileDiff(args, root) {
  const [, stepArg, file, region] = args.match(ARGS) ?? [];
  if (file === undefined) throw new Error(`expected "N FILE" or "N FILE#region", got "${args}"`);
  const { before, after, earlier } = stepPair(path.join(root, "steps"), stepArg);
  const change = fileChange(before, after, file, restoredFiles(earlier, after));
  const shown = region === undefined ? change : regionChange(change, after, region);
  return renderFileDiff(shown, before, after).join("\n");
}

// The steps are found from the root, so `docs.mjs --root DIR` reads DIR/steps as it reads DIR/docs.
function stepPair(stepsDir, stepArg) {
  if (!/^\d+$/.test(stepArg)) throw new Error(`expected a step number, got "${stepArg}"`);
  if (!existsSync(stepsDir)) throw new Error(`there is no steps folder at ${stepsDir}`);
  const steps = listSteps(stepsDir);
  const after = findStep(steps, stepArg);
  const ids = steps.map((step) => step.id).join(", ") || "(none)";
  if (!after) throw new Error(`unknown step ${stepArg}; the steps are ${ids}`);
  return { before: previousStep(steps, after), after, earlier: steps.filter((step) => step.number < after.number) };
}

// Presence is checked before difference, so "no such file" and "nothing changed" get their own messages.
function fileChange(before, after, file, restored) {
  const holds = (step) => step !== undefined && listStepFiles(step.dir).includes(file);
  if (!holds(after) && !holds(before)) {
    const also = before === undefined ? "" : ` or steps/${before.folder}`;
    throw new Error(`${file} is not a file of steps/${after.folder}${also}`);
  }
  const change = compareSteps(before, after, { restored }).find((entry) => entry.path === file);
  if (change === undefined) {
    throw new Error(`steps/${after.folder}/${file} is identical to steps/${before.folder}'s; nothing to show`);
  }
  return change;
}

/** `change` keeping only the hunks that change region `name` of step `after`'s file, with region markers dropped. */
function regionChange(change, after, name) {
  const where = `steps/${after.folder}/${change.path}`;
  if (change.status === "removed") throw new Error(`${where} is removed in this step, so it has no region "${name}"`);
  const { open, close } = locate(readStepFile(after.dir, change.path).split("\n"), name, where);
  const hunks = change.hunks.filter((hunk) => changesRegion(hunk, open + 1, close + 1)).map(withoutMarkers);
  if (hunks.length === 0) {
    throw new Error(`no hunk changes region "${name}" (lines ${open + 1}-${close + 1} of ${where}); nothing to show`);
  }
  return { ...change, hunks };
}

function locate(lines, name, where) {
  try {
    return findRegion(lines, name);
  } catch (error) {
    throw new Error(`${error.message} in ${where}`);
  }
}

// Only changed lines count: context that reaches into the region carries none of its lesson, nor does a marker.
// A removed line sits just before the new file's next line, so it counts when that line is inside or closes the region.
function changesRegion(hunk, open, close) {
  let next = hunk.newStart;
  for (const line of hunk.lines) {
    const counts = !isMarker(line.slice(1)) && next > open;
    if (line[0] === "+" && counts && next < close) return true;
    if (line[0] === "-" && counts && next <= close) return true;
    if (line[0] === "+" || line[0] === " ") next += 1;
  }
  return false;
}

// Markers are dropped as `gen code` drops them. Starts stay the file's real line numbers, so a reader can find them;
// counts are of the lines shown, so each header agrees with its body (a dropped line inside leaves a gap there).
function withoutMarkers(hunk) {
  const marker = (line) => "+- ".includes(line[0]) && isMarker(line.slice(1));
  const lines = hunk.lines.filter((line) => !marker(line));
  const onSide = (sides) => (line) => sides.includes(line[0]);
  const leading = (side) => hunk.lines.filter(side).findIndex((line) => !marker(line));
  const skipped = (side) => (leading(side) === -1 ? hunk.lines.filter(side).length : leading(side));
  return {
    ...hunk,
    oldStart: hunk.oldStart + skipped(onSide(" -")),
    oldLines: lines.filter(onSide(" -")).length,
    newStart: hunk.newStart + skipped(onSide(" +")),
    newLines: lines.filter(onSide(" +")).length,
    lines,
  };
}
