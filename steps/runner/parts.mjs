// The tutorial's parts (lesson.json "part") as the runner shows them: --list groups the steps under them, and the first
// step of a part says what it starts from and which earlier programs it starts, found by role as any client finds them.
import path from "node:path";
import { changeOf, isTestFile, listStepFiles, readJson, readStepFile } from "./shared/repo.mjs";

/** The steps in runs of one part each, in order: [{ part, steps }]. */
export function groupByPart(steps) {
  const groups = [];
  for (const step of steps) {
    if (groups.length === 0 || groups.at(-1).part !== step.lesson.part)
      groups.push({ part: step.lesson.part, steps: [] });
    groups.at(-1).steps.push(step);
  }
  return groups;
}

/** The lines of --list: each part a heading, then its steps, a blank line between parts. */
export function listLines(steps) {
  return groupByPart(steps).flatMap(({ part, steps: members }, i) => {
    const range = members.length === 1 ? `step ${members[0].id}` : `steps ${members[0].id}-${members.at(-1).id}`;
    const heading = `Part ${i + 1}, ${part ?? "(no part in lesson.json)"} (${range})`;
    return [...(i === 0 ? [] : [""]), heading, ...members.map((step) => `  ${step.id}  ${step.title}`)];
  });
}

/**
 * How `step` opens its part, or undefined when it is in its predecessor's part (or has none): the step it starts
 * from, what becomes of that step's files, and the earlier programs it starts by role.
 */
export function partOpening(steps, step) {
  const index = steps.findIndex((other) => other.dir === step.dir);
  const previous = steps[index - 1];
  if (previous === undefined || previous.lesson.part === step.lesson.part) return undefined;
  const files = listStepFiles(previous.dir);
  const changes = files.map((rel) => changeOf(previous.dir, step.dir, rel));
  const count = (change) => changes.filter((one) => one === change).length;
  return {
    step,
    previous,
    files: files.length,
    kept: count(undefined),
    changed: count("changed"),
    removed: count("removed"),
    programs: earlierPrograms(steps, step),
  };
}

/** The one line --diff prints first for a step that opens a part. */
export function openingLine({ step, previous, files, removed, programs }) {
  const started = programs.map(({ role, from }) => `"${role}" (step ${from?.id ?? "?"})`);
  const starts =
    started.length === 0
      ? "it starts no earlier program"
      : `it starts ${joinWords(started)} as ${started.length === 1 ? "an outside program" : "outside programs"}`;
  return (
    `Step ${step.id} opens the part "${step.lesson.part}": it starts from step ${previous.id}, the end of ` +
    `"${previous.lesson.part}", and removes ${removed} of its ${files} files; ${starts}.`
  );
}

export const joinWords = (words) =>
  words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;

/**
 * The role-table programs of earlier steps that `step`'s own code names by role (a quoted role name in a file that is
 * not a test), in the table's order, each with the step it belongs to.
 */
export function earlierPrograms(steps, step) {
  const table = readJson(path.join(path.dirname(step.dir), "roles.json"));
  if (table.error) return [];
  const texts = listStepFiles(step.dir)
    .filter((rel) => !isTestFile(rel))
    .map((rel) => readStepFile(step.dir, rel));
  const named = (role) => texts.some((text) => ['"', "'", "`"].some((quote) => text.includes(quote + role + quote)));
  return Object.entries(table)
    .filter(([, program]) => program.split("/")[0] !== path.basename(step.dir))
    .filter(([role]) => named(role))
    .map(([role, program]) => ({
      role,
      program,
      from: steps.find((other) => path.basename(other.dir) === program.split("/")[0]),
    }));
}
