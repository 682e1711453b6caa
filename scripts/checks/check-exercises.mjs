// `pnpm check:exercises [--all | --step N]`: proves every blank of every exercise is noticed by a test (issue 17,
// "Honest by construction"). A step whose record entry (docs/.exercises.json) still matches the tree is taken from it
// whole, not even generated: that takes 1-6 s a step, and the digest covers all that generating depends on.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { runChecks } from "../exercises/check-step.mjs";
import { planAndCompare } from "../exercises/compare.mjs";
import {
  entryProblems,
  inputsDigest,
  nodeMajor,
  readRecord,
  RECORD,
  testsReach,
  writeRecord,
} from "../exercises/record.mjs";
import { startSession } from "../exercises/session.mjs";
import { strays } from "../exercises/vitest-run.mjs";
import { findStep, listSteps, previousStep } from "../../steps/runner/shared/repo.mjs";

// Measured on a 2-core machine shared with other test runs: no test without a timeout of its own took over 6.5 s
// with three variants running, so 10 s bounds a hang (a slower one is re-run, check-step.mjs). Step 20 took 78 s
// with two runs at once, 51 s with three and 47 s with four (means of three): three leaves the load lower.
const DEFAULTS = { jobs: 3, testTimeout: 10_000 };
const USAGE =
  "usage: check-exercises.mjs [--all | --step N] [--jobs N] " +
  "[--test-timeout MS] [--record FILE] [--gaps FILE] [--verbose]";

function options() {
  const spec = {
    all: { type: "boolean" },
    step: { type: "string" },
    jobs: { type: "string", default: String(DEFAULTS.jobs) },
    "test-timeout": { type: "string", default: String(DEFAULTS.testTimeout) },
    record: { type: "string", default: RECORD },
    gaps: { type: "string" },
    verbose: { type: "boolean" },
  };
  try {
    const { values } = parseArgs({ options: spec });
    const numbers = [Number(values.jobs), Number(values["test-timeout"])];
    if (numbers.some((n) => !Number.isInteger(n) || n < 1))
      throw new Error("--jobs and --test-timeout take whole numbers");
    return { ...values, jobs: numbers[0], testTimeout: numbers[1] };
  } catch (error) {
    console.error(`check:exercises: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
}

/**
 * The steps to consider (every step with a predecessor, or the one asked for), each with its digest and record entry.
 */
function targets(opts, record) {
  const steps = listSteps();
  let chosen = steps.slice(1);
  if (opts.step !== undefined) {
    const step = findStep(steps, opts.step);
    if (step === undefined || step === steps[0]) {
      const why = step ? `step ${step.id} has no exercise (nothing comes before it)` : `no step ${opts.step}`;
      console.error(`check:exercises: ${why}\n${USAGE}`);
      process.exit(2);
    }
    chosen = [step];
  }
  return chosen.map((step) => {
    const previous = previousStep(steps, step);
    const tests = testsReach(step);
    const inputs = inputsDigest(step, previous, tests);
    const entry = record[step.folder];
    return { step, previous, tests, inputs, fresh: entry?.inputs === inputs && entry.blanks !== undefined };
  });
}

function describe(problem) {
  if (problem.kind === "untouched")
    return `${problem.step}: untouched, every test passes: the exercise asks for nothing`;
  if (problem.kind === "error") return `${problem.step}: ${problem.message}`;
  const ran = problem.ran?.length ? `ran ${problem.ran.join(", ")}` : "no test file reaches its file";
  return `${problem.step}: ${problem.blank}: no test fails with only this blank left (${ran}): a test is missing`;
}

/** Checks one step and returns its record entry, or `{ error }` (not recorded: it proves nothing). */
async function checkOne(target, opts, session) {
  const started = Date.now();
  const { plan, error } = planAndCompare(target.step, target.previous, session.scratch);
  if (error) return { error };
  const result = await runChecks(plan, target.tests, { ...session, testTimeout: opts.testTimeout });
  if (result.error) return { error: result.error };
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  return { inputs: target.inputs, node: nodeMajor(), ...result.entry, seconds };
}

// A re-run that finds what the record says keeps the recorded entry, time included, so the file does not churn.
const sameResult = (a, b) =>
  a !== undefined && JSON.stringify({ ...a, seconds: 0 }) === JSON.stringify({ ...b, seconds: 0 });

/** Checks the stale steps, a few at once, recording each as it ends, so that an interrupted run keeps what it found. */
async function checkStale(stale, opts, session, state) {
  const running = [];
  for (const target of stale) {
    await session.limit.idle(); // plan the next step only once every run already planned has a slot
    running.push(checkOne(target, opts, session).then((entry) => settle(target.step.folder, entry, opts, state)));
  }
  await Promise.all(running);
}

function settle(folder, entry, opts, state) {
  if (entry.error) {
    delete state.next[folder];
    state.problems.push({ step: folder, kind: "error", message: entry.error });
  } else {
    state.next[folder] = sameResult(state.record[folder], entry) ? state.record[folder] : entry;
    state.problems.push(...entryProblems(folder, entry));
  }
  const mine = state.problems.filter((problem) => problem.step === folder).length;
  const count = Object.keys(entry.blanks ?? {}).length;
  const said = entry.error
    ? "cannot be checked"
    : mine > 0
      ? `${mine} problem(s)`
      : `${count} blanks, each noticed by a test`;
  console.log(`check:exercises: ${folder}: ${said}${entry.seconds ? ` (${entry.seconds} s)` : ""}`);
  state.changed = writeRecord(state.next, opts.record) || state.changed;
  writeGaps(opts, state.problems);
}

/** The one line about a record made under another Node major (only digests decide staleness), then the plan. */
function announce(all, stale, record) {
  const older = all.find((target) => target.fresh && record[target.step.folder].node !== nodeMajor());
  if (older) {
    const made = `the record was made under Node ${record[older.step.folder].node} (this is Node ${nodeMajor()})`;
    console.log(`check:exercises: ${made}; pnpm check:exercises --all re-checks it`);
  }
  const taken = `${all.length - stale.length} taken from the record`;
  console.log(`check:exercises: ${all.length} step(s), ${taken}, ${stale.length} to check`);
}

/** The record as it will be written, and the problems of the entries taken from it. */
function startState(opts, record, all, stale) {
  const kept = all.filter((target) => !stale.includes(target));
  const problems = kept.flatMap(({ step }) => entryProblems(step.folder, record[step.folder]));
  const next = { ...record };
  // A whole run drops the entries of steps that no longer exist; --step N leaves the others alone.
  const gone = Object.keys(record).filter((folder) => !all.some((target) => target.step.folder === folder));
  if (opts.step === undefined) for (const folder of gone) delete next[folder];
  return { record, next, problems, changed: writeRecord(next, opts.record) };
}

async function main() {
  const opts = options();
  const record = readRecord(opts.record);
  const all = targets(opts, record);
  const stale = all.filter((target) => opts.all || opts.step !== undefined || !target.fresh);
  announce(all, stale, record);
  const state = startState(opts, record, all, stale);
  writeGaps(opts, state.problems);
  const session = startSession(opts);
  await checkStale(stale, opts, session, state);
  if (strays.count > 0) console.log(`check:exercises: killed ${strays.count} process(es) that outlived their test run`);
  for (const problem of state.problems) console.log(`  ${describe(problem)}`);
  if (state.changed)
    console.log(`check:exercises: the record ${path.relative(process.cwd(), opts.record)} changed: commit it`);
  const { length } = state.problems;
  console.log(`check:exercises: ${length === 0 ? "every blank is noticed by a test" : `${length} problem(s)`}`);
  process.exitCode = length === 0 ? 0 : 1;
}

/** The gap list other work starts from, one row per blank no test notices, when --gaps names a file. */
function writeGaps(opts, problems) {
  if (opts.gaps === undefined) return;
  const gaps = problems
    .filter((p) => p.kind === "gap")
    .map(({ step, blank, ran }) => ({ step, blank, testFiles: ran }));
  writeFileSync(opts.gaps, `${JSON.stringify(gaps, null, 2)}\n`);
}

await main();
