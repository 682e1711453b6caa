// `check:steps --fix`: writes the derivable part of each lesson.json, its `changes`, from the files on disk. Only the
// `changes` value is rewritten in the file's text, so every other key, the key order and the layout stay as written.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { byCodeUnit, changeOf, listStepFiles } from "../../steps/runner/shared/repo.mjs";

/** The files new, changed or removed since `prevDir` (none for the first step), by the rule checkChanges applies. */
export function actualChanges(prevDir, dir) {
  if (prevDir === undefined) return [];
  const all = [...new Set([...listStepFiles(prevDir), ...listStepFiles(dir)])].sort(byCodeUnit);
  return all.filter((rel) => changeOf(prevDir, dir, rel) !== undefined);
}

const listText = (list) =>
  list.length === 0 ? "[]" : `[\n${list.map((rel) => `    ${JSON.stringify(rel)}`).join(",\n")}\n  ]`;
// The top-level "changes" array as check:steps' own files lay it out; any other layout is rewritten whole.
const CHANGES_VALUE = /^ {2}"changes": (\[[^\]]*\])/m;

/** lesson.json's text with `changes` set to `list`: the value replaced in place where found, else rewritten. */
export function withChanges(text, list) {
  const lesson = JSON.parse(text);
  const match = CHANGES_VALUE.exec(text);
  if (match && JSON.stringify(JSON.parse(match[1])) === JSON.stringify(lesson.changes)) {
    const start = match.index + match[0].length - match[1].length;
    return text.slice(0, start) + listText(list) + text.slice(start + match[1].length);
  }
  if ("changes" in lesson) return `${JSON.stringify({ ...lesson, changes: list }, null, 2)}\n`;
  // No changes key yet: it goes after "part" (or at the end), as the other steps have it.
  const entries = Object.entries(lesson);
  const part = entries.findIndex(([key]) => key === "part");
  entries.splice(part === -1 ? entries.length : part + 1, 0, ["changes", list]);
  return `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
}

/** One line per lesson.json whose `changes` differ from the files, naming each file +added or -dropped. */
export function fixChanges(steps, { write }) {
  const lines = [];
  steps.forEach((step, i) => {
    const file = path.join(step.dir, "lesson.json");
    let text;
    try {
      text = readFileSync(file, "utf8");
      JSON.parse(text);
    } catch (error) {
      return lines.push(`steps/${step.name}/lesson.json: not fixed, cannot be read: ${error.message}`);
    }
    const declared = JSON.parse(text).changes;
    const actual = actualChanges(steps[i - 1]?.dir, step.dir);
    if (JSON.stringify(declared ?? []) === JSON.stringify(actual)) return;
    const old = Array.isArray(declared) ? declared : [];
    const added = actual.filter((rel) => !old.includes(rel)).map((rel) => `+${rel}`);
    const dropped = old.filter((rel) => !actual.includes(rel)).map((rel) => `-${rel}`);
    const what = [...added, ...dropped].join(" ") || "reordered";
    if (write) writeFileSync(file, withChanges(text, actual));
    lines.push(`steps/${step.name}/lesson.json: changes ${write ? "fixed" : "to fix"}: ${what}`);
  });
  return lines;
}
