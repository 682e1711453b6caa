// `<!-- gen exercise N -->`: the body of a chapter's "Build it yourself" section, the commands and the blanks of step
// N's exercise, from the plan the runner writes the exercise with; and the check that a learner can find every blank.
import { existsSync } from "node:fs";
import path from "node:path";
import { declarationsOf, findBlanks, parse } from "../../steps/runner/exercise/blanks.mjs";
import { planExercise } from "../../steps/runner/exercise/exercise.mjs";
import { findStep, listStepFiles, listSteps, previousStep, readStepFile } from "../../steps/runner/shared/repo.mjs";
import { fenced, parseDoc } from "./docblocks.mjs";
import { findRegion } from "./regions.mjs";

// The steps are found from the root, so `docs.mjs --root DIR` reads DIR/steps as it reads DIR/docs.
function stepPair(root, arg) {
  if (!/^\d+$/.test(arg)) throw new Error(`expected a step number, got "${arg}"`);
  const stepsDir = path.join(root, "steps");
  const steps = existsSync(stepsDir) ? listSteps(stepsDir) : [];
  const step = findStep(steps, arg);
  if (!step) throw new Error(`unknown step ${arg}`);
  const previous = previousStep(steps, step);
  if (!previous) throw new Error(`step ${step.id} is the first step: it has no exercise`);
  return { step, previous, fromMine: previous !== steps[0] && previous.lesson.part === step.lesson.part };
}

//#region section
/** The lines of step `arg`'s section: its commands in a fenced block, then one line for each blank. */
export function exerciseSection(arg, root) {
  const { step, previous, fromMine } = stepPair(root, arg);
  const { blanks } = planExercise(step, previous);
  const folder = `exercises/${step.folder}/`;
  const commands = [
    ["--exercise", `${folder}: step ${step.id}, its lesson taken out`],
    ...(fromMine ? [["--exercise --from-mine", `the same, from your own exercises/${previous.folder}/`]] : []),
    ["--check", `step ${step.id}'s tests on your folder, then your demo`],
    ["--hint", "the first failing blank, and where the chapter shows it"],
    ["--solution", `your folder against step ${step.id}, as a diff`],
  ].map(([flags, what]) => [`node steps/run.mjs ${step.number} ${flags}`, what]);
  const width = Math.max(...commands.map(([command]) => command.length));
  const lines = commands.map(([command, what]) => `${command.padEnd(width)}  # ${what}`);
  const count = blanks.length === 1 ? "one blank" : `${blanks.length} blanks`;
  const starts = fromMine || previous.number === 1 ? [] : ["", partStart(step, previous)];
  return [
    ...fenced(lines.join("\n"), "sh"),
    ...starts,
    "",
    `The exercise has ${count}:`,
    "",
    ...blanks.map((blank) => blankLine(blank, previous)),
  ];
}

const partStart = (step, previous) =>
  `Step ${step.id} is the first of the part "${step.lesson.part}": its ` +
  `exercise starts from the reference step ${previous.id}, not from your own.`;

function blankLine(blank, previous) {
  const start =
    blank.start === "previous"
      ? `, changed (it starts as step ${previous.id} has it)`
      : blank.change === "changed"
        ? ", changed (it starts blank)"
        : "";
  return `- \`${blank.name}\` in \`${blank.file}\`${start}${blank.doc ? `: ${blank.doc}` : ""}`;
}
//#endregion

//#region unexplained
/**
 * The blanks of `step` a learner cannot find: in no region that `chapter` (its text) shows with a `gen code` block of
 * the step's own files, and either without a doc comment or in a chapter that has no `gen exercise` block listing them.
 */
export function unexplainedBlanks(step, blanks, chapter) {
  const { lines, blocks } = parseDoc(chapter);
  const listed = blocks.some((block) => block.kind === "exercise" && findStep([step], block.args) === step);
  const shown = blocks.filter((block) => block.kind === "code" && block.args.startsWith(`steps/${step.folder}/`));
  const ranges = shown
    .map((block) => shownRange(step, block.args.slice(`steps/${step.folder}/`.length)))
    .filter(Boolean);
  return blanks.filter(
    (blank) =>
      !(listed && blank.doc) && !ranges.some((range) => range.file === blank.file && holds(range, step, blank)),
  );
}

// The lines a `gen code` block shows, as 0-based indexes of the lines around them; undefined when it shows nothing.
function shownRange(step, args) {
  const [file, region] = args.split("#");
  const text = readStepFile(step.dir, file);
  if (text === null) return undefined;
  if (region === undefined) return { file, open: -1, close: Infinity };
  try {
    return { file, ...findRegion(text.split("\n"), region) };
  } catch {
    return undefined;
  }
}

function holds(range, step, blank) {
  const file = parse(blank.file, readStepFile(step.dir, blank.file));
  const found = declarationsOf(file).find((declaration) => declaration.name === blank.name);
  const lineOf = (pos) => file.getLineAndCharacterOfPosition(pos).line;
  return (
    found !== undefined && range.open < lineOf(found.outer.getStart(file)) && lineOf(found.outer.end) < range.close
  );
}

/** What docs:check says of a chapter's blanks: each one a learner cannot find, and a missing section. */
export function chapterBlankProblems(root, doc, text) {
  const match = /^docs\/(\d\d)-[^/]*\.md$/.exec(doc);
  const stepsDir = path.join(root, "steps");
  const steps = match && existsSync(stepsDir) ? listSteps(stepsDir) : [];
  const step = match ? findStep(steps, match[1]) : undefined;
  const previous = step && previousStep(steps, step);
  if (!step || !previous || doc !== `docs/${step.folder}.md`) return [];
  const blanks = findBlanks(step.dir, previous.dir, listStepFiles(step.dir), step.lesson.given ?? []);
  const problems = [];
  if (!parseDoc(text).blocks.some((block) => block.kind === "exercise" && findStep([step], block.args) === step)) {
    problems.push(`${doc}: no <!-- gen exercise ${step.id} --> block lists the blanks of step ${step.id}'s exercise`);
  }
  // Without the section, a blank with a doc comment is listed nowhere; the missing section says so once for all.
  for (const blank of unexplainedBlanks(step, blanks, text).filter((blank) => !blank.doc)) {
    problems.push(
      `${doc}: step ${step.id}'s blank ${blank.id} has no doc comment and ` +
        `lies in no region the chapter shows; give it a one-line doc comment`,
    );
  }
  return problems;
}
//#endregion
