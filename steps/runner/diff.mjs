// Compares two step folders file by file with jsdiff, so the lesson's diff needs no git and reads the same everywhere.
// Files are compared by the repository's one rule (shared/repo.mjs): the same rule check:steps enforces.
import { structuredPatch } from "diff";
import { byCodeUnit, comparableOld, isTestFile, listStepFiles, readStepFile } from "./shared/repo.mjs";

const CONTEXT_LINES = 3;

const lineCount = (text) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

// What the program does comes before what checks it: source first, then tests, each in code-unit order.
export function lessonOrder(a, b) {
  return isTestFile(a) === isTestFile(b) ? byCodeUnit(a, b) : isTestFile(a) ? 1 : -1;
}

/**
 * One entry per file that differs: status "new", "removed", "restored" or "changed", with its hunks and line counts.
 * A removed file carries no hunks: its old text is not part of the lesson, only the fact that it went. Nor does a
 * file in `restored` (path -> the earlier step it comes back from, restored.mjs): its text was a lesson once already.
 */
export function compareSteps(before, after, { tests = true, restored = new Map() } = {}) {
  const oldFiles = before ? listStepFiles(before.dir) : [];
  const paths = [...new Set([...oldFiles, ...listStepFiles(after.dir)])]
    .filter((path) => tests || !isTestFile(path))
    .sort(lessonOrder);
  const changes = [];
  for (const path of paths) {
    const newText = readStepFile(after.dir, path);
    const oldText = before ? comparableOld(path, readStepFile(before.dir, path), newText) : null;
    if (oldText === newText) continue;
    if (newText === null) {
      changes.push({ path, status: "removed", hunks: [], added: 0, removed: lineCount(oldText) });
      continue;
    }
    if (restored.has(path)) {
      changes.push({
        path,
        status: "restored",
        from: restored.get(path),
        hunks: [],
        added: lineCount(newText),
        removed: 0,
      });
      continue;
    }
    const { hunks } = structuredPatch(path, path, oldText ?? "", newText, undefined, undefined, {
      context: CONTEXT_LINES,
    });
    changes.push({ path, status: oldText === null ? "new" : "changed", hunks, ...countLines(hunks) });
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
