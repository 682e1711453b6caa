// Step N's exercise started from the learner's own step N−1 folder: what step N keeps comes from their files, what it
// adds or changes is blanked as in any exercise. A piece of theirs that no longer type-checks falls back, with a note.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { mayHoldBlanks } from "./blanks.mjs";
import { ExerciseError, writeExercise } from "./exercise.mjs";
import { holds, mergedFile, ownFiles, render } from "./mine-pieces.mjs";
import { checkerOver, typeErrors } from "./texts.mjs";
import { listStepFiles, previousStep, readStepFile } from "../shared/repo.mjs";

const MAX_ROUNDS = 6;

/** Whether `step` opens a part (lesson.json "part"); a step or predecessor without one marks no boundary. */
export function partStart(steps, step) {
  const before = previousStep(steps, step);
  if (before === undefined) return true;
  const [part, earlier] = [step.lesson.part, before.lesson.part];
  return part !== undefined && earlier !== undefined && part !== earlier;
}

//#region from mine
/**
 * The texts of `plan`'s exercise (planExercise(step N, step N−1)) started from `mineDir`, the learner's step N−1
 * folder, which the caller has seen pass --check (tests only); where partStart(steps, step) holds, the caller uses
 * planExercise alone and says so. Returns { texts, notes }:
 * - texts: rel -> text of step N's source files that differ from the reference, and of the learner's own source
 *   files, for writeFromMine(plan, dest, texts); every other file is step N's;
 * - notes: one line ("src/server.ts: …") for each piece of theirs that fell back or gave way to one of step N's.
 * Throws ExerciseError when even the reference's pieces do not type-check.
 */
export function fromMine(plan, mineDir) {
  const { step } = plan;
  const planned = plan.texts();
  const files = listStepFiles(step.dir)
    .filter((rel) => mayHoldBlanks(rel, step.lesson.given ?? []))
    .flatMap((rel) => mergedFile(plan, mineDir, rel) ?? []);
  const theirFiles = ownFiles(plan, mineDir);
  const pieces = [...files.flatMap((file) => file.pieces), ...theirFiles];
  for (let round = 0; ; round++) {
    const texts = new Map(planned);
    for (const file of files) texts.set(file.rel, render(plan, file));
    for (const piece of theirFiles.filter((file) => file.mine)) texts.set(piece.rel, piece.text);
    for (const [rel, text] of texts) if (text === readStepFile(step.dir, rel)) texts.delete(rel);
    const errors = typeErrors(checkerOver(step.dir, texts), step.dir);
    const fellBack = pieces.filter((piece) => !piece.mine && piece.theirs);
    const notes = [...files.flatMap((file) => file.clashes), ...fellBack.map((piece) => `${piece.rel}: ${piece.note}`)];
    if (errors.length === 0) return { texts, notes };
    const live = pieces.filter((piece) => piece.mine);
    if (live.length === 0) {
      const shown = errors.slice(0, 5).map((error) => `  ${error.rel}:${error.line}: ${error.message.split("\n")[0]}`);
      throw new ExerciseError(`the exercise of step ${step.id} does not type-check:\n${shown.join("\n")}`);
    }
    // A misfit is a piece holding an error; failing that, every piece of a file with errors; failing that, all.
    const at = (piece) => errors.filter((error) => error.rel === piece.rel);
    const inside = live.filter((piece) => at(piece).some((error) => holds(piece, error, texts)));
    const near = live.filter((piece) => at(piece).length > 0);
    const misfits = round === MAX_ROUNDS ? live : inside.length > 0 ? inside : near.length > 0 ? near : live;
    for (const piece of misfits) piece.mine = false;
  }
}

/** Writes the exercise as writeExercise does, and the learner's own source files besides. */
export function writeFromMine(plan, dest, texts) {
  writeExercise(plan, dest, texts);
  const stepFiles = new Set(listStepFiles(plan.step.dir));
  for (const [rel, text] of texts) {
    if (stepFiles.has(rel)) continue;
    mkdirSync(path.dirname(path.join(dest, rel)), { recursive: true });
    writeFileSync(path.join(dest, rel), text);
  }
}
//#endregion
