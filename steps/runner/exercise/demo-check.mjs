// Runs the learner's demo and compares its output with the one the chapter records, normalised as the docs check
// normalises it. The learner's folder stands in for step N's, so a path the demo prints compares equal.
import { normalize } from "../../../scripts/docs/normalize.mjs";
import { REPO_ROOT } from "../shared/repo.mjs";
import { resolveTsxLoader } from "../steps.mjs";
import { startTracked } from "./cleanup.mjs";
import { cleanMessage, firstLines } from "./test-results.mjs";

const demoPreload = new URL("../demo-preload.mjs", import.meta.url).href;
// The docs check's bound for one command: a demo that takes longer would not be in a chapter either.
const DEMO_TIMEOUT_MS = 120_000;
const SHOWN_LINES = 4;

function demoEnv() {
  const { FORCE_COLOR, ...env } = process.env;
  return { ...env, NO_COLOR: "1" };
}

/** The lines where `mine` first departs from `recorded`, with a few after: what a learner needs to see. */
function firstDifference(recorded, mine) {
  const expected = recorded.split("\n");
  const actual = mine.split("\n");
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at += 1;
  const side = (lines) =>
    at < lines.length ? lines.slice(at, at + SHOWN_LINES).map((line) => `      ${line}`) : ["      (no more output)"];
  return [
    `  first difference at line ${at + 1} of the output:`,
    "    the chapter:",
    ...side(expected),
    "    yours:",
    ...side(actual),
  ];
}

/**
 * Runs `src/main.ts` of `folder` and resolves with { verdict: "match" | "differ", lines } to print; verdict is
 * undefined when the chapter records no demo output to compare with.
 */
export async function compareDemo(step, folder, recorded) {
  if (recorded === undefined)
    return {
      verdict: undefined,
      lines: [`The chapter records no demo output for step ${step.id}; the demo was not run.`],
    };
  const tsxLoader = resolveTsxLoader(step);
  if (!tsxLoader)
    return { verdict: "differ", lines: [`The demo cannot run: tsx is not installed for steps/${step.folder}.`] };
  const args = ["--import", demoPreload, "--import", tsxLoader, "src/main.ts"];
  const run = await startTracked(process.execPath, args, { cwd: folder, env: demoEnv(), timeoutMs: DEMO_TIMEOUT_MS })
    .done;
  const problems = [];
  if (run.timedOut)
    problems.push(`Your demo (src/main.ts) did not finish within ${DEMO_TIMEOUT_MS / 1000} s; the check stopped it.`);
  else if (run.status !== 0)
    problems.push(
      `Your demo (src/main.ts) exited with status ` +
        `${run.status}:\n${indent(firstLines(cleanMessage(run.stderr, folder), 8))}`,
    );
  if (run.leftProcesses)
    problems.push(
      "Your demo (src/main.ts) exited and left processes running; the check stopped them. A demo stops what it starts.",
    );
  const mine = normalize(run.stdout.split(folder).join(step.dir), REPO_ROOT).replace(/\s+$/, "");
  if (problems.length === 0 && mine === recorded)
    return { verdict: "match", lines: [`Your step ${step.id} runs as the chapter shows.`] };
  const lines = [...problems];
  if (mine !== recorded)
    lines.push(
      `Your demo's output differs from the chapter's (docs/${step.folder}.md):`,
      ...firstDifference(recorded, mine),
    );
  return { verdict: "differ", lines };
}

const indent = (text) =>
  text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
