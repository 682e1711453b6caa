// `<!-- gen part N -->` and `<!-- gen map N -->`: what the first step of a part starts from and the earlier programs it
// starts by role, as a paragraph; and every file of step N with its state, as `node steps/run.mjs N --map` prints it.
// Both are made in process by the runner's own modules from the files alone, so they are checked on every run.
import { existsSync } from "node:fs";
import path from "node:path";
import { mapLines, stepMap } from "../../steps/runner/map.mjs";
import { partOpening } from "../../steps/runner/parts.mjs";
import { findStep, listSteps } from "../../steps/runner/shared/repo.mjs";
import { fenced } from "./docblocks.mjs";

// The steps are found from the root, so `docs.mjs --root DIR` reads DIR/steps as it reads DIR/docs.
function stepAt(root, arg) {
  if (!/^\d+$/.test(arg)) throw new Error(`expected a step number, got "${arg}"`);
  const stepsDir = path.join(root, "steps");
  const steps = existsSync(stepsDir) ? listSteps(stepsDir) : [];
  const step = findStep(steps, arg);
  if (!step) throw new Error(`unknown step ${arg}`);
  return { steps, step };
}

/** The lines of `gen map N`: the runner's --map output, fenced. */
export function mapBlock(arg, root) {
  const { steps, step } = stepAt(root, arg);
  return fenced(mapLines(stepMap(steps, step)).join("\n"), "text");
}

const link = (step) => `[step ${step.id}](${step.folder}.md)`;

/** The lines of `gen part N`: what step N starts from and which earlier programs it starts, by role. */
export function partSection(arg, root) {
  const { steps, step } = stepAt(root, arg);
  const opening = partOpening(steps, step);
  if (opening === undefined) {
    throw new Error(`step ${step.id} does not open a part: it is in the part of the step before it, or first`);
  }
  const { previous, files, kept, changed, removed, programs } = opening;
  const starts =
    `Step ${step.id} opens the part "${step.lesson.part}". It starts from ${link(previous)}, the last of ` +
    `"${previous.lesson.part}": it keeps ${kept} of that step's ${files} files as they are, changes ` +
    `${changed === 0 ? "none" : changed} and removes ${removed}.`;
  if (programs.length === 0) return [`${starts} It starts no earlier program.`];
  return [
    `${starts} It starts ${programs.length === 1 ? "this earlier program" : "these earlier programs"}, ` +
      `found by ${programs.length === 1 ? "its role" : "their roles"} in \`steps/roles.json\`:`,
    "",
    ...programs.map(
      ({ role, program, from }) => `- "${role}": \`steps/${program}\`${from ? `, from ${link(from)}` : ""}`,
    ),
  ];
}
