// `N --check`: step N's tests against the learner's folder, blank by blank, then one summary line; once every test
// passes, the demo against the chapter. What it finds is kept as the state's lastCheck, which --progress reads.
import path from "node:path";
import { inChapterOrder, readChapter } from "./chapter.mjs";
import { compareDemo } from "./demo-check.mjs";
import { writeRoles } from "./exercise.mjs";
import { ownTestFiles, runStepTests } from "./run-tests.mjs";
import {
  EXERCISES_DIR,
  folderDigest,
  folderOf,
  readState,
  recordedTests,
  shown,
  stateBlanks,
  stepDigest,
  writeState,
} from "./state.mjs";
import { firstLines } from "./test-results.mjs";
import { blankLine, blankStates, hangLines, nextStep, summaryLine } from "./verdict.mjs";

const SHOWN_ERRORS = 10;

/** The exercise's blanks: as its state file keeps them, or planned afresh when the state is gone. */
export async function blanksOf(step, previous, state) {
  if (state) return state.blanks;
  const { planExercise } = await import("./exercise.mjs");
  return stateBlanks(planExercise(step, previous).blanks);
}

/** The lines that come before the results: a step that changed since the exercise was made, test files not run. */
function notes(step, previous, state, folder) {
  const lines = [];
  if (state && state.stepDigest !== stepDigest(step, previous)) {
    lines.push(
      `Step ${step.id} has changed since this exercise was made ` +
        `(after a git pull?): its tests may not fit your folder.`,
    );
    lines.push(`  To start afresh: node steps/run.mjs ${step.number} --reset (your folder is kept, moved aside).`);
  }
  const own = ownTestFiles(step, folder);
  if (own.length > 0)
    lines.push(
      `Your copies of ${own.join(", ")} differ from step ${step.id}'s; the check runs step ${step.id}'s tests.`,
    );
  return lines;
}

const indented = (text) =>
  text
    .split("\n")
    .map((line) => `  ${line}`.trimEnd())
    .join("\n");

const errorLines = (errors) => [
  ...errors
    .slice(0, SHOWN_ERRORS)
    .map((error) => `  ${error.file ? `${error.file}:${error.line}: ` : ""}${error.message.split("\n")[0]}`),
  ...(errors.length > SHOWN_ERRORS ? [`  … and ${errors.length - SHOWN_ERRORS} more`] : []),
];

/** Everything wrong that is not a failing test: type errors, test files that could not run, a crash, leftovers. */
function problemLines(result) {
  const lines = [];
  if (result.typeErrors.length > 0) lines.push("Type errors (tsc):", ...errorLines(result.typeErrors));
  for (const { file, message, ran, blocked } of result.fileErrors) {
    const what =
      blocked > 0
        ? `${file}: ${blocked} of its tests did not run, since a hook before them failed:`
        : ran
          ? `${file} failed outside its tests:`
          : `${file} could not run its tests:`;
    lines.push(what, indented(firstLines(message, 6)));
  }
  for (const error of result.unhandled) lines.push("An error outside any test:", indented(firstLines(error, 6)));
  if (result.crashed) lines.push("The tests could not run:", indented(firstLines(result.crashed, 8)));
  if (result.leftProcesses) lines.push("The tests left processes running; the check stopped them.");
  const hangs = hangLines(result.tests);
  if (hangs.length > 0) lines.push("Tests that hit their time bound (a hang):", ...hangs);
  return lines;
}

/** Prints the tests' verdict blank by blank; resolves with { passed, states, next }. */
function reportTests(step, folder, blanks, chapter, result, print) {
  const states = blankStates(step, folder, inChapterOrder(chapter, blanks), result, recordedTests(step));
  for (const line of [...states.map(blankLine), ...problemLines(result)]) print(line);
  const next = nextStep(step.id, states, result.tests);
  print(summaryLine(result.tests, next, result.fileErrors));
  const clean = result.fileErrors.length === 0 && result.unhandled.length === 0 && !result.crashed;
  return { passed: result.tests.length > 0 && !next && clean, states, next };
}

/** Keeps what the check found as the state's lastCheck; a folder without a state file gets one. */
function saveCheck(step, previous, state, blanks, lastCheck) {
  const base = state ?? { step: step.folder, stepDigest: stepDigest(step, previous), blanks };
  writeState(step, { ...base, lastCheck });
}

/**
 * Checks step N's exercise, printing through `print`; resolves with { status, states, next, tests, chapter }.
 * `demo: false` stops after the tests and `remember: false` leaves the state alone (--hint needs neither).
 */
export async function checkExercise(step, previous, { print = console.log, demo = true, remember = true } = {}) {
  const folder = folderOf(step);
  const state = readState(step);
  const blanks = await blanksOf(step, previous, state);
  const chapter = readChapter(step);
  const digest = folderDigest(folder);
  print(`Checking ${shown(folder)}/ with the tests of steps/${step.folder}.`);
  // Generated, not the learner's: written afresh so that a role moved by a git pull is found where it now is.
  writeRoles(EXERCISES_DIR, path.dirname(step.dir));
  for (const line of notes(step, previous, state, folder)) print(line);
  const result = await runStepTests(step, folder);
  const save = (lastCheck) => remember && saveCheck(step, previous, state, blanks, { digest, ...lastCheck });
  if (result.syntaxErrors.length > 0) {
    for (const line of ["Syntax errors: the tests did not run.", ...errorLines(result.syntaxErrors)]) print(line);
    save({ tests: "fail" });
    return { status: 1, states: [], tests: [], chapter, syntaxErrors: result.syntaxErrors };
  }
  const { passed, states, next } = reportTests(step, folder, blanks, chapter, result, print);
  const done = { states, next, tests: result.tests, chapter };
  if (!passed) {
    save({ tests: "fail" });
    return { status: 1, ...done };
  }
  const shownDemo = demo ? await compareDemo(step, folder, chapter.runOutput) : { verdict: undefined, lines: [] };
  for (const line of shownDemo.lines) print(line);
  save({ tests: "pass", ...(shownDemo.verdict && { demo: shownDemo.verdict }) });
  const clean = result.typeErrors.length === 0 && shownDemo.verdict !== "differ";
  return { status: clean ? 0 : 1, ...done, demo: shownDemo.verdict };
}
