// Compares two step folders file by file with jsdiff, so the lesson's diff needs no git and reads the same everywhere.
// package.json's "name" line is ignored: every package needs its own name, and that difference teaches nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { structuredPatch } from "diff";

const CONTEXT_LINES = 3;
// The first "name" key in a package.json is the package's own name.
const NAME_LINE = /^[ \t]*"name"[ \t]*:.*$/m;

/** Every file under `dir` as a "/"-separated relative path, node_modules left out. */
function listFiles(dir, prefix = "") {
  const files = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== "node_modules") files.push(...listFiles(dir, path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

function readOrNull(step, path, files) {
  return step && files.has(path) ? readFileSync(join(step.dir, path), "utf8") : null;
}

/** The old side takes the new side's name line, so the context shows the name of the step being read. */
function withoutNameChange(path, before, after) {
  if (path !== "package.json" || before === null || after === null) return before;
  const newName = NAME_LINE.exec(after);
  return newName ? before.replace(NAME_LINE, () => newName[0]) : before;
}

/** One entry per file that differs: status "new", "removed" or "changed", with its hunks and line counts. */
export function compareSteps(before, after) {
  const oldFiles = new Set(before ? listFiles(before.dir) : []);
  const newFiles = new Set(listFiles(after.dir));
  // Code-unit order, not localeCompare: the output is pasted into docs and must not depend on the machine.
  const paths = [...new Set([...oldFiles, ...newFiles])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const changes = [];
  for (const path of paths) {
    const newText = readOrNull(after, path, newFiles);
    const oldText = withoutNameChange(path, readOrNull(before, path, oldFiles), newText);
    if (oldText === newText) continue;
    const status = oldText === null ? "new" : newText === null ? "removed" : "changed";
    const { hunks } = structuredPatch(path, path, oldText ?? "", newText ?? "", undefined, undefined, {
      context: CONTEXT_LINES,
    });
    changes.push({ path, status, hunks, ...countLines(hunks) });
  }
  return changes;
}

function countLines(hunks) {
  let added = 0;
  let removed = 0;
  for (const line of hunks.flatMap((hunk) => hunk.lines)) {
    if (line.startsWith("+")) added += 1;
    else if (line.startsWith("-")) removed += 1;
  }
  return { added, removed };
}
