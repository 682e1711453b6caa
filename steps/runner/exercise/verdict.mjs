// The state of each blank after a check, from the tests check:exercises recorded for it, and the one summary line.
// A blank whose tests the record does not name is said to be unknown, never guessed from the file it is in.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { declarationsOf, parse } from "./blanks.mjs";
import { throwLine } from "./texts.mjs";

/** Where the blank is in the learner's file now (it moves as they write), and whether it still throws. */
export function inLearnerFile(step, folder, blank) {
  const file = path.join(folder, blank.file);
  if (!existsSync(file)) return { line: blank.line, written: false };
  const text = readFileSync(file, "utf8");
  const source = parse(blank.file, text);
  const found = declarationsOf(source).find((candidate) => candidate.name === blank.name);
  const line = found ? source.getLineAndCharacterOfPosition(found.node.getStart(source)).line + 1 : blank.line;
  return { line, written: !text.includes(throwLine(step.id, blank)) };
}

/**
 * A recorded name as this check saw it: a test by its name, or a whole test file (check:exercises records a file that
 * failed outside its tests by its path alone), which fails while it cannot run or any of its tests fails.
 */
function lookup(tests, fileErrors) {
  const byName = new Map(tests.map((test) => [test.name, test]));
  return (name) => {
    if (byName.has(name)) return byName.get(name);
    const own = tests.filter((test) => test.file === name);
    const error = fileErrors.find((candidate) => candidate.file === name);
    if (own.length === 0 && !error) return undefined;
    const failed = own.find((test) => test.status !== "passed");
    if (!error && !failed) return { name, file: name, status: "passed", message: "" };
    return {
      ...(failed ?? { file: name, line: undefined, timedOut: false }),
      name,
      status: "failed",
      message: error?.message ?? failed.message,
    };
  };
}

/**
 * Each blank (in the order given) with `state`: "pass", "fail", "unrun" (some of its tests did not run, as when their
 * file could not load) or "unknown", its failing tests, and where it is. `recorded(id)` lists its tests, or undefined.
 */
export function blankStates(step, folder, blanks, { tests, fileErrors }, recorded) {
  const find = lookup(tests, fileErrors);
  return blanks.map((blank) => {
    const names = recorded(blank.id) ?? [];
    const seen = names.map(find).filter(Boolean);
    const failing = seen.filter((test) => test.status !== "passed");
    const unrun = names.length - seen.length;
    const state = names.length === 0 ? "unknown" : failing.length > 0 ? "fail" : unrun > 0 ? "unrun" : "pass";
    return { blank, state, names, failing, unrun, ...inLearnerFile(step, folder, blank) };
  });
}

const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** One line per blank: its state, where it is, and what its tests say. */
export function blankLine({ blank, state, names, failing, unrun, line, written }) {
  const where = `${blank.file}:${line} ${blank.name}`;
  const still = written ? "" : " (still a blank)";
  if (state === "pass")
    return `  pass  ${where}: ${names.length === 1 ? "its test passes" : `its ${names.length} tests pass`}${still}`;
  if (state === "fail")
    return (
      `  FAIL  ${where}: ${failing.length} of ${count(names.length, "test")} ` +
      `fail${unrun > 0 ? `, ${unrun} did not run` : ""}${still}`
    );
  if (state === "unrun") {
    const which =
      names.length === 1
        ? "its test"
        : unrun === names.length
          ? `its ${names.length} tests`
          : `${unrun} of its ${names.length} tests`;
    return `  ?     ${where}: ${which} did not run${still}`;
  }
  return `  ?     ${where}: tests not recorded${still}`;
}

/**
 * The blank to do next and its first failing test: a blank whose own "not written yet" a failing test ran into,
 * else the first failing blank that is still a blank (a written one may fail only because another still throws),
 * else the first failing one, else the first still a blank. Blanks are taken in the chapter's order.
 */
export function nextStep(stepId, states, tests) {
  const failed = tests.filter((test) => test.status !== "passed");
  for (const state of states.filter((candidate) => !candidate.written)) {
    const test = failed.find((candidate) =>
      candidate.message.includes(`${state.blank.name}: not written yet (step ${stepId})`),
    );
    if (test) return { state, test };
  }
  const failing = states.filter((state) => state.state === "fail");
  const blankFailing = failing.find((state) => !state.written) ?? failing[0];
  if (blankFailing) return { state: blankFailing, test: blankFailing.failing[0] };
  if (failed.length === 0) return undefined;
  return { state: states.find((state) => !state.written), test: failed[0] };
}

/** "7 of 11 tests pass; next: <test name> — src/server.ts handleSum"; test files that could not run are named. */
export function summaryLine(tests, next, fileErrors = []) {
  const passed = tests.filter((test) => test.status === "passed").length;
  const head = tests.length === 1 ? `${passed} of 1 test passes` : `${passed} of ${tests.length} tests pass`;
  const unrun = fileErrors.filter((error) => !error.ran).map((error) => error.file);
  if (!next && unrun.length > 0) return `${head}; ${unrun.join(", ")} could not run: see above.`;
  if (!next) return `${head}.`;
  const blank = next.state ? ` — ${next.state.blank.file} ${next.state.blank.name}` : "";
  return `${head}; next: ${next.test.name}${blank}`;
}

/** Tests that hit their time bound, each as a line naming its file and line. */
export const hangLines = (tests) =>
  tests
    .filter((test) => test.timedOut)
    .map(
      (test) =>
        `  ${test.file}${test.line ? `:${test.line}` : ""} "${test.name.split(" > ").at(-1)}" ` +
        `did not finish within ${test.seconds} s: something it waits for never comes`,
    );
