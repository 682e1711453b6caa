// The runner's command line: reads the arguments, checks what the command needs, hands off.
// Each command imports only the modules it uses, so a missing dependency is named for what was asked.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findStep, hasNodeModules, listSteps, previousStep, resolveTsxLoader, stepsDir } from "./steps.mjs";

const INSTALL = "npx -y pnpm@10.34.9 install";
const FLAGS = new Set(["--list", "--diff", "--stat", "--no-tests", "--wire", "--help", "-h"]);

const USAGE = `Usage:
  node steps/run.mjs [--list]          list the chapters
  node steps/run.mjs N                 run step N's demo
  node steps/run.mjs N --diff          show what step N changes, as a unified diff (source first, then tests)
  node steps/run.mjs N --stat          the same, as changed files with line counts
  node steps/run.mjs N --diff --no-tests   the same without the tests
  node steps/run.mjs N --wire          run step N's demo and print every JSON-RPC message on its pipes and every HTTP exchange`;

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
  const flags = new Set();
  const positionals = [];
  for (const arg of argv) {
    if (FLAGS.has(arg)) flags.add(arg);
    else if (arg.startsWith("-")) throw new UsageError(`Unknown option ${arg}.`);
    else positionals.push(arg);
  }
  if (positionals.length > 1) throw new UsageError(`Expected one step number, got: ${positionals.join(" ")}.`);
  if (flags.has("--wire") && (flags.has("--diff") || flags.has("--stat"))) {
    throw new UsageError("--wire runs the demo; it cannot be combined with --diff or --stat.");
  }
  if (flags.has("--no-tests") && !flags.has("--diff") && !flags.has("--stat")) {
    throw new UsageError("--no-tests goes with --diff or --stat.");
  }
  return { flags, stepArg: positionals[0] };
}

async function dispatch({ flags, stepArg }) {
  if (flags.has("--help") || flags.has("-h")) {
    console.log(USAGE);
    return 0;
  }
  const steps = listSteps();
  if (stepArg === undefined) {
    if (flags.size > 0 && !flags.has("--list")) throw new UsageError(`${[...flags].join(" ")} needs a step number.`);
    for (const step of steps) console.log(`${step.id}  ${step.title}`);
    return 0;
  }
  if (flags.has("--list")) throw new UsageError("--list takes no step number.");
  const step = findStep(steps, stepArg);
  if (!step) {
    const valid = steps.map((s) => s.id).join(", ");
    throw new UsageError(`Unknown step ${stepArg}. Valid steps: ${valid || `(none in ${stepsDir})`}.`);
  }
  if (flags.has("--diff") || flags.has("--stat")) {
    return showDiff(previousStep(steps, step), step, { statOnly: flags.has("--stat"), tests: !flags.has("--no-tests") });
  }
  return runStep(step, flags.has("--wire"));
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

async function runStep(step, wire) {
  requireInstall();
  const tsxLoader = resolveTsxLoader(step);
  if (!tsxLoader) return missing(`tsx (looked for it from steps/${step.folder})`);
  if (!existsSync(join(step.dir, "src", "main.ts"))) {
    console.error(`steps/${step.folder} has no demo: src/main.ts is missing.`);
    return 1;
  }
  const { runDemo } = await import("./run-demo.mjs");
  return runDemo(step, { tsxLoader, wire });
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
