// --map: every file of a step with its state next to the step before and its header's first line, so a reader sees
// what the step is made of before reading its diff. A file the step drops is listed too, with the header it had.
import { lessonOrder } from "./diff.mjs";
import { restoredFiles } from "./restored.mjs";
import { changeOf, listStepFiles, previousStep, readStepFile } from "./shared/repo.mjs";

/** The first line of a file's header: its first line when that is a `//` comment (after a `#!` line), else "". */
export function headerLine(text) {
  const lines = (text ?? "").split("\n");
  const first = lines[0].startsWith("#!") ? lines[1] : lines[0];
  return /^\/\/ ?(.*)$/.exec(first ?? "")?.[1].trim() ?? "";
}

/**
 * One entry per file of `step` or of the step before: `state` is "new", "changed", "same", "restored" or "removed",
 * `given` what lesson.json gives of it (true for the file, a declaration's name, or undefined), `header` its header.
 */
export function stepMap(steps, step) {
  const earlier = steps.filter((other) => other.number < step.number);
  const before = previousStep(steps, step);
  const restored = restoredFiles(earlier, step);
  const paths = [...new Set([...(before ? listStepFiles(before.dir) : []), ...listStepFiles(step.dir)])];
  return paths.sort(lessonOrder).map((rel) => {
    const state = restored.has(rel) ? "restored" : before ? (changeOf(before.dir, step.dir, rel) ?? "same") : "new";
    const text = readStepFile(state === "removed" ? before.dir : step.dir, rel);
    return { path: rel, state, from: restored.get(rel), given: givenOf(step, rel), header: headerLine(text) };
  });
}

function givenOf(step, rel) {
  const entries = (step.lesson.given ?? []).filter((entry) => entry.split("#")[0] === rel);
  if (entries.includes(rel)) return true;
  return entries.length === 0 ? undefined : entries.map((entry) => entry.split("#")[1]).join(", ");
}

/** The lines of --map: state, path and header in columns. */
export function mapLines(entries) {
  const states = entries.map(stateText);
  const stateWidth = Math.max(...states.map((state) => state.length));
  const pathWidth = Math.max(...entries.map((entry) => entry.path.length));
  return entries.map((entry, i) =>
    `${states[i].padEnd(stateWidth)}  ${entry.path.padEnd(pathWidth)}  ${entry.header}`.trimEnd(),
  );
}

function stateText({ state, from, given }) {
  const base = state === "restored" ? `restored from step ${from.id ?? from.name}` : state;
  if (given === undefined) return base;
  return given === true ? `${base}, given` : `${base}, given #${given}`;
}
