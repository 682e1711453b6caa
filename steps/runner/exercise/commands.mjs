// The exercise's commands as the runner's command line sees them: which one the flags ask for, what makes one a
// misuse (the runner answers those with its usage), and the hand-off, each command loading only its own modules.
import { existsSync } from "node:fs";
import { previousStep } from "../shared/repo.mjs";
import { adoptRenumbered, folderOf, shown } from "./state.mjs";

export const MODES = ["--exercise", "--check", "--hint", "--solution", "--progress"];
// Options that go with one command each; --reset alone is --exercise --reset.
export const MODE_OPTIONS = {
  "--reset": "--exercise",
  "--from-mine": "--exercise",
  "--watch": "--check",
  "--show": "--hint",
};

/** The exercise command the flags ask for (undefined for none), or the problem with them. */
export function exerciseMode(flags, prompt) {
  const given = [
    ...new Set(
      [...flags].map((flag) => (flag === "--reset" ? "--exercise" : flag)).filter((flag) => MODES.includes(flag)),
    ),
  ];
  for (const [option, mode] of Object.entries(MODE_OPTIONS)) {
    if (flags.has(option) && !given.includes(mode)) return { problem: `${option} goes with ${mode}.` };
  }
  if (given.length === 0) return {};
  if (given.length > 1) return { problem: `${given.join(" and ")} are separate commands; give one.` };
  const others = [...flags].filter(
    (flag) => !MODES.includes(flag) && !(flag in MODE_OPTIONS) && flag !== "--help" && flag !== "-h",
  );
  if (others.length > 0) return { problem: `${given[0]} cannot be combined with ${others.join(" ")}.` };
  if (prompt !== undefined) return { problem: `${given[0]} takes one step number, not a prompt.` };
  return { mode: given[0] };
}

/**
 * Why `mode` cannot run for `step` (undefined when no step number was given), or undefined when it can. A folder left
 * under a step's old number is first moved to its new one, so that renumbering keeps the learner's work.
 */
export function exerciseProblem(mode, steps, step) {
  for (const move of adoptRenumbered(steps)) console.error(move);
  if (mode === "--progress") return step ? "--progress takes no step number: it lists every step." : undefined;
  if (!step) return `${mode} needs a step number.`;
  if (!previousStep(steps, step))
    return `Step ${step.id} has no exercise: it is the first step, with nothing before it to start from.`;
  if (mode !== "--exercise" && !existsSync(folderOf(step))) {
    return (
      `There is no exercise for step ${step.id} yet (no ${shown(folderOf(step))}/). ` +
      `Start it with: node steps/run.mjs ${step.number} --exercise`
    );
  }
  return undefined;
}

/** Runs one exercise command that exerciseProblem accepted; resolves with the runner's exit status. */
export async function runExerciseCommand(mode, steps, step, { reset, watch, show, fromMine }) {
  const previous = step && previousStep(steps, step);
  switch (mode) {
    case "--progress":
      return (await import("./progress.mjs")).showProgress(steps);
    case "--exercise":
      return (await import("./start.mjs")).startExercise(step, previous, {
        reset,
        fromMine: fromMine ? steps : undefined,
      });
    case "--check":
      if (watch) return (await import("./watch.mjs")).watchExercise(step, previous);
      return (await (await import("./check.mjs")).checkExercise(step, previous)).status;
    case "--hint":
      return (await import("./hint.mjs")).hint(step, previous, { show });
    case "--solution":
      return (await import("./solution.mjs")).showSolution(step);
  }
  throw new Error(`unknown exercise command ${mode}`);
}
