// The runner's command line: reads the arguments, checks what the command needs, hands off.
// Each command imports only the modules it uses, so a missing dependency is named for what was asked.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { exerciseMode, exerciseProblem, MODE_OPTIONS, MODES, runExerciseCommand } from "./exercise/commands.mjs";
import { takeWireFilters } from "./wire-filter.mjs";
import { findStep, hasNodeModules, listSteps, previousStep, resolveTsxLoader, stepsDir } from "./steps.mjs";

const INSTALL = "npx -y pnpm@10.34.9 install";
export const FLAGS = new Set(["--list", "--diff", "--stat", "--map", "--no-tests", "--wire", "--live", "--help", "-h"]);
// The exercise's commands (exercise/commands.mjs) go with none of the flags above but --help.
for (const flag of [...MODES, ...Object.keys(MODE_OPTIONS)]) FLAGS.add(flag);
// Flags only some steps take: a step declares each one in its lesson.json "flags", and its demo receives it.
export const STEP_FLAGS = ["--live"];

export const USAGE = `Usage:
  node steps/run.mjs [--list]          list the chapters, under the part each belongs to
  node steps/run.mjs N                 run step N's demo
  node steps/run.mjs N --diff          show what step N changes, as a unified diff (source first, then tests)
  node steps/run.mjs N --stat          the same, as changed files with line counts
  node steps/run.mjs N --diff --no-tests   the same without the tests
  node steps/run.mjs N --map           each file of step N: new, changed, same, restored, removed or given, and its header
  node steps/run.mjs N --wire          run step N's demo and print every JSON-RPC message on its pipes and every HTTP exchange
  node steps/run.mjs N --wire --only TEXT   only the HTTP exchanges, and stdio requests with their answers, that
                                       contain TEXT ([label] included); --only again keeps what either matches
  node steps/run.mjs N --wire --from TEXT   the exchanges from the first one that contains TEXT on
  node steps/run.mjs N --wire --first COUNT   at most COUNT exchanges; each filter works alone or with others
  node steps/run.mjs N --wire --cut WIDTH   each line cut at WIDTH characters, " …" marking the cut
  node steps/run.mjs N --live ["prompt"]   run step N's demo against the real model API (steps that declare --live)

Build it yourself (step 02 on; your work goes to exercises/, which git ignores):
  node steps/run.mjs N --exercise      write exercises/NN-slug/: step N with its lesson left as blanks to write
  node steps/run.mjs N --reset         the same, after moving your exercises/NN-slug/ aside (.old-1, .old-2, ...)
  node steps/run.mjs N --exercise --from-mine   step N started from your own step N-1 folder, once its tests pass
  node steps/run.mjs N --check         run step N's tests against your folder, blank by blank, then its demo
  node steps/run.mjs N --check --watch   the same again on every save, until Ctrl-C
  node steps/run.mjs N --hint          the next blank: the chapter section that shows it, and its failing test
  node steps/run.mjs N --hint --show   step N's own version of that one blank
  node steps/run.mjs N --solution      the diff from your folder to step N
  node steps/run.mjs --progress        each step's exercise: not started, started, tests passing, demo matching`;

class UsageError extends Error {}

export async function main(argv) {
  // A reader that stops early (`| head`) has all it wanted: end quietly instead of with a stack trace.
  process.stdout.on("error", (error) => {
    if (error.code !== "EPIPE") throw error;
  });
  try {
    process.exitCode = await dispatch(parseArgs(argv));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  }
}

function parseArgs(argv) {
  const { filter: wireFilter, rest, problem } = takeWireFilters(argv);
  if (problem) throw new UsageError(problem);
  const flags = new Set();
  const positionals = [];
  for (const arg of rest) {
    if (FLAGS.has(arg)) flags.add(arg);
    else if (arg.startsWith("-")) throw new UsageError(`Unknown option ${arg}.`);
    else positionals.push(arg);
  }
  // With --live, a second word is the prompt: node steps/run.mjs 21 --live "What is 2 + 40?"
  const [stepArg, prompt, ...extra] = positionals;
  if (extra.length > 0 || (prompt !== undefined && !flags.has("--live"))) {
    throw new UsageError(
      `Expected one step number${flags.has("--live") ? " and one prompt" : ""}, got: ${positionals.join(" ")}.`,
    );
  }
  for (const runs of ["--wire", "--live"]) {
    if (flags.has(runs) && (flags.has("--diff") || flags.has("--stat"))) {
      throw new UsageError(`${runs} runs the demo; it cannot be combined with --diff or --stat.`);
    }
  }
  const withMap = ["--diff", "--stat", "--no-tests", "--wire", "--live"].filter((flag) => flags.has(flag));
  if (flags.has("--map") && withMap.length > 0) throw new UsageError(`--map cannot be combined with ${withMap[0]}.`);
  if (flags.has("--no-tests") && !flags.has("--diff") && !flags.has("--stat")) {
    throw new UsageError("--no-tests goes with --diff or --stat.");
  }
  if (wireFilter && !flags.has("--wire")) throw new UsageError("--only, --from, --first and --cut go with --wire.");
  return { flags, stepArg, prompt, mode: modeOf(flags, prompt), wireFilter };
}

function modeOf(flags, prompt) {
  const { mode, problem } = exerciseMode(flags, prompt);
  if (problem) throw new UsageError(problem);
  return mode;
}

async function dispatch({ flags, stepArg, prompt, mode, wireFilter }) {
  if (flags.has("--help") || flags.has("-h")) {
    console.log(USAGE);
    return 0;
  }
  const steps = listSteps();
  if (mode) return exercise(mode, steps, stepArg, flags);
  if (stepArg === undefined) {
    if (flags.size > 0 && !flags.has("--list")) throw new UsageError(`${[...flags].join(" ")} needs a step number.`);
    const { listLines } = await import("./parts.mjs");
    console.log(listLines(steps).join("\n"));
    return 0;
  }
  if (flags.has("--list")) throw new UsageError("--list takes no step number.");
  const step = findStep(steps, stepArg);
  if (!step) throw unknownStep(steps, stepArg);
  if (flags.has("--diff") || flags.has("--stat")) {
    return showDiff(previousStep(steps, step), step, {
      statOnly: flags.has("--stat"),
      tests: !flags.has("--no-tests"),
      steps,
    });
  }
  if (flags.has("--map")) {
    const { mapLines, stepMap } = await import("./map.mjs");
    console.log(mapLines(stepMap(steps, step)).join("\n"));
    return 0;
  }
  const demoArgs = stepFlags(steps, step, flags);
  if (prompt !== undefined) demoArgs.push(prompt);
  return runStep(step, flags.has("--wire"), demoArgs, wireFilter);
}

function unknownStep(steps, stepArg) {
  const valid = steps.map((s) => s.id).join(", ");
  return new UsageError(`Unknown step ${stepArg}. Valid steps: ${valid || `(none in ${stepsDir})`}.`);
}

/** Checks what an exercise command needs (a step after the first; for most, its folder), then hands off. */
async function exercise(mode, steps, stepArg, flags) {
  const step = stepArg === undefined ? undefined : findStep(steps, stepArg);
  if (stepArg !== undefined && !step) throw unknownStep(steps, stepArg);
  const problem = exerciseProblem(mode, steps, step);
  if (problem) throw new UsageError(problem);
  requireInstall();
  const options = {
    reset: flags.has("--reset"),
    watch: flags.has("--watch"),
    show: flags.has("--show"),
    fromMine: flags.has("--from-mine"),
  };
  return runExerciseCommand(mode, steps, step, options);
}

/** The step-declared flags given, checked against the step's lesson.json; they are passed on to its demo. */
function stepFlags(steps, step, flags) {
  const given = STEP_FLAGS.filter((flag) => flags.has(flag));
  for (const flag of given) {
    if (step.lesson.flags?.includes(flag)) continue;
    const takers = steps.filter((other) => other.lesson.flags?.includes(flag)).map((other) => other.id);
    throw new UsageError(
      `Step ${step.id} does not take ${flag}; ` +
        `${takers.length > 0 ? `steps that do: ${takers.join(", ")}` : "no step does"}.`,
    );
  }
  return given;
}

async function showDiff(before, after, options) {
  requireInstall();
  try {
    await import("diff");
  } catch {
    return missing("the diff package");
  }
  const { renderDiff } = await import("./diff-render.mjs");
  process.stdout.write(renderDiff(before, after, options));
  return 0;
}

async function runStep(step, wire, demoArgs, wireFilter) {
  requireInstall();
  const tsxLoader = resolveTsxLoader(step);
  if (!tsxLoader) return missing(`tsx (looked for it from steps/${step.folder})`);
  if (!existsSync(join(step.dir, "src", "main.ts"))) {
    console.error(`steps/${step.folder} has no demo: src/main.ts is missing.`);
    return 1;
  }
  const { runDemo } = await import("./run-demo.mjs");
  return runDemo(step, { tsxLoader, wire, wireFilter, demoArgs });
}

function requireInstall() {
  if (!hasNodeModules()) {
    console.error(`Dependencies are not installed (no node_modules). Run:\n  ${INSTALL}`);
    process.exit(1);
  }
}

function missing(what) {
  console.error(`Missing ${what}. Install the dependencies with:\n  ${INSTALL}`);
  return 1;
}
