// `N --hint`: for the next blank, where the chapter teaches it and what its first failing test asserts, in the test's
// own words without the stack. `--show` prints step N's own text of that one blank instead of the whole solution.
import { readFileSync } from "node:fs";
import path from "node:path";
import { declarationsOf, parse } from "./blanks.mjs";
import { sectionOf } from "./chapter.mjs";
import { checkExercise } from "./check.mjs";
import { chapterOf, shown } from "./state.mjs";
import { firstLines } from "./test-results.mjs";

const MESSAGE_LINES = 8;

/** The blank's declaration as step N has it, doc comment included, with the line it starts on. */
export function referenceText(step, blank) {
  const text = readFileSync(path.join(step.dir, blank.file), "utf8");
  const file = parse(blank.file, text);
  const found = declarationsOf(file).find((candidate) => candidate.name === blank.name);
  if (!found) return undefined;
  const start = found.outer.getStart(file, true);
  return { line: file.getLineAndCharacterOfPosition(start).line + 1, text: text.slice(start, found.outer.end) };
}

function hintLines(step, next, chapter) {
  const lines = [];
  const blank = next.state?.blank;
  if (blank) {
    lines.push(`Next: ${blank.file}:${next.state.line} ${blank.name}${blank.doc ? ` — ${blank.doc}` : ""}`);
    const section = sectionOf(chapter, blank);
    const where = shown(chapterOf(step));
    lines.push(
      section
        ? `  Read: ${where}, "${section.title}" (line ${section.line})`
        : `  Read: ${where} (it does not show this blank).`,
    );
  }
  const test = next.test;
  lines.push(`  Failing: ${test.name}${test.line ? ` (${test.file}:${test.line})` : ""}`);
  const said = test.timedOut
    ? `did not finish within ${test.seconds} s: something it waits for never comes`
    : firstLines(
        test.status === "blocked" ? `did not run: a hook before it failed:\n${test.message}` : test.message,
        MESSAGE_LINES,
      );
  lines.push(...said.split("\n").map((line) => `    ${line}`.trimEnd()));
  if (blank) lines.push(`  Step ${step.id}'s own version of it: node steps/run.mjs ${step.number} --hint --show`);
  return lines;
}

/** Runs the tests quietly, then prints the hint (or the reference, with `show`); resolves with the exit status. */
export async function hint(step, previous, { show = false } = {}) {
  const result = await checkExercise(step, previous, { print: () => {}, demo: false, remember: false });
  if (result.syntaxErrors) {
    const [first] = result.syntaxErrors;
    console.log(`Fix the syntax error first: ${first.file}:${first.line}: ${first.message.split("\n")[0]}`);
    return 1;
  }
  if (!result.next) {
    console.log(
      result.tests.length > 0
        ? `All ${result.tests.length} tests of step ${step.id} pass: no hint needed. Run --check to compare the demo.`
        : "No test ran: run --check to see why.",
    );
    return result.tests.length > 0 ? 0 : 1;
  }
  if (!show) {
    console.log(hintLines(step, result.next, result.chapter).join("\n"));
    return 0;
  }
  const blank = result.next.state?.blank;
  const reference = blank && referenceText(step, blank);
  if (!reference) {
    console.log(`The failing test belongs to no blank the check can name: ${result.next.test.name}. See --solution.`);
    return 1;
  }
  console.log(
    `steps/${step.folder}/${blank.file}:${reference.line} ` +
      `${blank.name}, as step ${step.id} has it:\n\n${reference.text}`,
  );
  return 0;
}
