// `N --exercise` and `N --reset`: writes step N's exercise into exercises/NN-slug/. A folder that is there holds the
// learner's work: it is never written over, only moved aside by --reset; the new one is written apart, then renamed in.
import { existsSync, mkdirSync, mkdtempSync, renameSync } from "node:fs";
import path from "node:path";
import { inChapterOrder, readChapter } from "./chapter.mjs";
import { trackFolder } from "./cleanup.mjs";
import { previousStep } from "../shared/repo.mjs";
import { EXERCISES_DIR, folderOf, shown, stateBlanks, stepDigest, writeState } from "./state.mjs";
import { inLearnerFile } from "./verdict.mjs";

/** The first `NN-slug.old-K` that is free. */
function asideName(folder) {
  let k = 1;
  while (existsSync(`${folder}.old-${k}`)) k += 1;
  return `${folder}.old-${k}`;
}

function refusal(step, folder) {
  return [
    `${shown(folder)}/ already exists: it holds your work on step ${step.id}, and the runner never writes over it.`,
    `  To go on with it:  node steps/run.mjs ${step.number} --check`,
    `  To start afresh:   node steps/run.mjs ${step.number} --reset ` +
      `(moves it aside to ${shown(asideName(folder))}/ first)`,
  ].join("\n");
}

/** What the learner reads once the folder is written: where it is, its blanks, and how to go on. */
function startLines(step, previous, folder, blanks, { movedTo, fromMine }) {
  const lines = [
    `Step ${step.id}'s exercise is in ` +
      `${shown(folder)}/${movedTo ? ` (your earlier folder is now ${shown(movedTo)}/)` : ""}.`,
  ];
  lines.push(
    `It is step ${step.id} with ${blanks.length} blank${blanks.length === 1 ? "" : "s"}: ` +
      `each throws "not written yet" until you write it.`,
  );
  for (const blank of blanks) {
    // From the learner's folder a changed declaration starts as they wrote it (the notes above name any it could not).
    const whose = fromMine ? `your step ${previous.id}` : `step ${previous.id}`;
    const start = blank.start === "previous" ? ` (starts as ${whose} had it)` : "";
    // The line in the exercise's file, where the learner goes: a blank's body is shorter than the reference's.
    const { line } = inLearnerFile(step, folder, blank);
    lines.push(`  ${blank.file}:${line}  ${blank.name}${blank.doc ? ` — ${blank.doc}` : ""}${start}`);
  }
  const n = step.number;
  lines.push(
    `Read docs/${step.folder}.md, write the blanks, then:`,
    `  node steps/run.mjs ${n} --check      run step ${step.id}'s ` +
      `tests against your folder (add --watch to re-check on every save)`,
    `  node steps/run.mjs ${n} --hint       the chapter section and ` +
      `the failing test of the next blank (--show: its reference)`,
    `  node steps/run.mjs ${n} --solution   how your folder differs from step ${step.id}`,
  );
  return lines;
}

/**
 * With --from-mine (`steps` given): the exercise's texts started from the learner's own step N−1 folder, once its tests
 * pass; undefined where step N opens a part (it starts from the reference); a number is the status to exit with.
 */
async function fromLearner(plan, steps) {
  const { step, previous } = plan;
  const { fromMine, partStart } = await import("./from-mine.mjs");
  if (partStart(steps, step)) {
    console.log(
      `Step ${step.id} opens the part "${step.lesson.part}": it ` +
        `starts from the reference, not from your step ${previous.id}.`,
    );
    return undefined;
  }
  if (!previousStep(steps, previous)) {
    console.log(
      `Step ${previous.id} has no exercise of yours to start from: step ${step.id} starts from the reference.`,
    );
    return undefined;
  }
  const mine = folderOf(previous);
  if (!existsSync(mine)) {
    console.error(`--from-mine starts from your step ${previous.id} in ${shown(mine)}/, which is not there.`);
    console.error(`  Take step ${previous.id} first: node steps/run.mjs ${previous.number} --exercise`);
    return 1;
  }
  const { checkExercise } = await import("./check.mjs");
  const check = await checkExercise(previous, previousStep(steps, previous), {
    demo: false,
    remember: false,
    print: () => {},
  });
  if (check.status !== 0) {
    console.error(
      `Your step ${previous.id} in ${shown(mine)}/ does not pass ` +
        `--check yet; --from-mine starts only from a finished step.`,
    );
    console.error(`  See what fails: node steps/run.mjs ${previous.number} --check`);
    return 1;
  }
  const { texts, notes } = fromMine(plan, mine);
  console.log(
    `Step ${step.id} starts from your step ${previous.id}: what it keeps is yours, what it adds or changes is blank.`,
  );
  for (const note of notes) console.log(`  ${note}`);
  return texts;
}

/** Writes the exercise; resolves with the runner's exit status. */
export async function startExercise(step, previous, { reset = false, fromMine } = {}) {
  const folder = folderOf(step);
  if (existsSync(folder) && !reset) {
    console.error(refusal(step, folder));
    return 1;
  }
  const { ExerciseError, planExercise, writeExercise } = await import("./exercise.mjs");
  let plan;
  try {
    plan = planExercise(step, previous);
  } catch (error) {
    if (!(error instanceof ExerciseError)) throw error;
    console.error(`Cannot make the exercise: ${error.message}`);
    return 1;
  }
  const mine = fromMine ? await fromLearner(plan, fromMine) : undefined;
  if (typeof mine === "number") return mine;
  mkdirSync(EXERCISES_DIR, { recursive: true });
  // Written beside its place, so that its relative links hold once renamed, and so that a half-written one is never
  // found.
  const fresh = mkdtempSync(path.join(EXERCISES_DIR, `.new-${step.folder}-`));
  const release = trackFolder(fresh);
  try {
    if (mine) (await import("./from-mine.mjs")).writeFromMine(plan, fresh, mine);
    else writeExercise(plan, fresh);
    const movedTo = existsSync(folder) ? asideName(folder) : undefined;
    if (movedTo) renameSync(folder, movedTo);
    renameSync(fresh, folder);
    writeState(step, { step: step.folder, stepDigest: stepDigest(step, previous), blanks: stateBlanks(plan.blanks) });
    const blanks = inChapterOrder(readChapter(step), plan.blanks);
    console.log(startLines(step, previous, folder, blanks, { movedTo, fromMine: Boolean(mine) }).join("\n"));
    return 0;
  } finally {
    release();
  }
}
