// A step's exercise: the plan (its blanks, how each starts) and the folder written from it. Filling every blank from
// the reference gives step N back byte for byte, except tsconfig.json, which the exercise generates.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { declarationsOf, findBlanks, parse } from "./blanks.mjs";
import { applyEdits, blankEdits, checkerOver, previousBody, returnTypeText, typeErrors } from "./texts.mjs";
import { listStepFiles, readStepFile } from "../shared/repo.mjs";
import { readRoles } from "../shared/roles.mjs";

const MAX_ROUNDS = 5;

/** Why an exercise cannot be made: its text does not type-check. */
export class ExerciseError extends Error {}

//#region plan
/**
 * Step `step`'s blanks against `previous`, each with `start`: "throw", or "previous" for a changed declaration that
 * starts as the previous step had it. `texts(fill)` gives every source file with blanks, `fill` (ids) taken from step
 * N.
 */
export function planExercise(step, previous) {
  const given = step.lesson.given ?? [];
  const blanks = findBlanks(step.dir, previous?.dir, listStepFiles(step.dir), given);
  const reference = checkerOver(step.dir);
  const files = new Map(
    [...new Set(blanks.map((blank) => blank.file))].map((rel) => [rel, readStepFile(step.dir, rel)]),
  );
  for (const blank of blanks) {
    const found = declarationsOf(reference.file(blank.file)).find((candidate) => candidate.name === blank.name);
    blank.returnType = returnTypeText(reference.checker, found.node);
    blank.start = blank.change === "changed" && previous ? "previous" : "throw";
  }
  const texts = (fill = new Set()) => textsOf(step, previous, files, blanks, fill);
  for (let round = 0; ; round++) {
    const errors = typeErrors(checkerOver(step.dir, texts()), step.dir);
    const misfits = blanks.filter(
      (blank) => blank.start === "previous" && errors.some((error) => inside(blank, error, texts())),
    );
    if (misfits.length === 0 && errors.length === 0) break;
    if (misfits.length === 0 || round === MAX_ROUNDS) {
      const shown = errors.slice(0, 5).map((error) => `  ${error.rel}:${error.line}: ${error.message.split("\n")[0]}`);
      throw new ExerciseError(`the exercise of step ${step.id} does not type-check:\n${shown.join("\n")}`);
    }
    for (const blank of misfits) blank.start = "throw";
  }
  return { step, previous, blanks, texts };
}

function textsOf(step, previous, files, blanks, fill) {
  const result = new Map();
  for (const [rel, text] of files) {
    const file = parse(rel, text);
    const found = new Map(declarationsOf(file).map((declaration) => [declaration.name, declaration]));
    const edits = blanks
      .filter((blank) => blank.file === rel && !fill.has(blank.id))
      .flatMap((blank) => {
        const declaration = found.get(blank.name);
        const body = blank.start === "previous" ? previousBody(previous.dir, blank, declaration, file) : undefined;
        return blankEdits(text, file, declaration, {
          returnType: blank.returnType,
          body,
          stepId: step.id,
          blank,
          note: noteOf(step, previous, blank, body),
        });
      });
    result.set(rel, applyEdits(text, edits));
  }
  return result;
}

/** The one-line comment above a changed declaration: what the step does to it. */
function noteOf(step, previous, blank, body) {
  if (blank.change !== "changed") return undefined;
  return body === undefined
    ? `Step ${step.id} changes ${blank.name}; step ${previous.id}'s version no longer fits, so it starts blank.`
    : `Step ${step.id} changes ${blank.name}: below is step ${previous.id}'s version.`;
}

/** Whether a type error lies in a blank's declaration, in the exercise's text of its file. */
function inside(blank, error, texts) {
  if (error.rel !== blank.file) return false;
  const file = parse(blank.file, texts.get(blank.file));
  const found = declarationsOf(file).find((candidate) => candidate.name === blank.name);
  return found !== undefined && error.pos >= found.outer.getFullStart() && error.pos <= found.outer.end;
}
//#endregion

//#region write
/**
 * Writes the exercise into `dest`: every file of step N, source files as `texts` has them, a tsconfig.json of its own,
 * node_modules linked to step N's, and beside the folder a roles.json whose programs are the reference steps'.
 */
export function writeExercise(plan, dest, texts = plan.texts()) {
  const { step } = plan;
  for (const rel of [...listStepFiles(step.dir), "lesson.json"]) {
    const target = path.join(dest, rel);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, texts.get(rel) ?? readFileSync(path.join(step.dir, rel)));
  }
  writeFileSync(path.join(dest, "tsconfig.json"), exerciseTsconfig(step, dest));
  symlinkSync(path.relative(dest, path.join(step.dir, "node_modules")), path.join(dest, "node_modules"));
  writeRoles(path.dirname(dest), path.dirname(step.dir));
}

function exerciseTsconfig(step, dest) {
  const base = JSON.parse(readFileSync(path.join(step.dir, "tsconfig.json"), "utf8"));
  const extendsPath = path.relative(dest, path.resolve(step.dir, base.extends)).split(path.sep).join("/");
  return `{
  // Generated with the exercise. A blank leaves names unread (its parameters, the imports its body used), so
  // noUnusedLocals is off here; step ${step.id} itself turns it on.
  "extends": ${JSON.stringify(extendsPath)},
  "compilerOptions": { "noUnusedLocals": false },
  "include": ["src"]
}
`;
}

/** The role table for exercises: the same roles, played by the reference steps' programs. */
export function writeRoles(exercisesDir, stepsDir) {
  const roles = readRoles(path.join(stepsDir, "roles.json"));
  const table = Object.fromEntries(
    Object.entries(roles).map(([role, rel]) => [
      role,
      path.relative(exercisesDir, path.join(stepsDir, rel)).split(path.sep).join("/"),
    ]),
  );
  mkdirSync(exercisesDir, { recursive: true });
  writeFileSync(path.join(exercisesDir, "roles.json"), `${JSON.stringify(table, null, 2)}\n`);
}
//#endregion
