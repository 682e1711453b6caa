// Prints a step's changes as a unified diff or as a per-file line count (--stat).
// Colour is decided once, from the terminal and NO_COLOR / FORCE_COLOR, so piped output stays plain text for the docs.
import { compareSteps } from "./diff.mjs";
import { openingLine, partOpening } from "./parts.mjs";
import { restoredFiles } from "./restored.mjs";

const ANSI = { bold: "\x1b[1m", red: "\x1b[31m", green: "\x1b[32m", cyan: "\x1b[36m", reset: "\x1b[0m" };

/** FORCE_COLOR wins (except "0" or "false"), then NO_COLOR, then whether stdout is a terminal. */
export function useColour(env = process.env, stream = process.stdout) {
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") {
    return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  }
  if (env.NO_COLOR) return false;
  return Boolean(stream.isTTY);
}

function painter(enabled) {
  return (colour, text) => (enabled ? `${ANSI[colour]}${text}${ANSI.reset}` : text);
}

/**
 * The whole output of --diff or --stat for `after` (the previous step is `before`, undefined for the first). Given
 * every step as `steps`, a restored file is one line, and a step that opens a part says so first.
 */
export function renderDiff(before, after, { statOnly = false, tests = true, colour = useColour(), steps } = {}) {
  const paint = painter(colour);
  const restored = steps
    ? restoredFiles(
        steps.filter((step) => step.number < after.number),
        after,
      )
    : new Map();
  const changes = compareSteps(before, after, { tests, restored });
  if (changes.length === 0) return `No file differs from steps/${before.folder}.\n`;
  const opening = steps ? partOpening(steps, after) : undefined;
  const lines = statOnly
    ? statLines(changes, paint)
    : changes.flatMap((change) => fileLines(change, before, after, paint));
  return [...(opening ? [paint("bold", openingLine(opening))] : []), ...lines].join("\n") + "\n";
}

/** One file's part of --diff, as lines: exactly what `renderDiff` prints for `change` (the docs show one file). */
export function renderFileDiff(change, before, after, { colour = false } = {}) {
  return fileLines(change, before, after, painter(colour));
}

// A side that does not exist is named in words: the diff is read by people, not fed to patch(1). A side that is not a
// step (a learner's exercise) brings its own label.
const labelOf = (side) => side.label ?? `steps/${side.folder}`;

function fileLines(change, before, after, paint) {
  if (change.status === "removed") return [paint("red", `removed ${change.path} (${change.removed} lines)`)];
  if (change.status === "restored") {
    return [paint("green", `restored ${change.path} ${restoredFrom(change)} (${change.added} lines)`)];
  }
  const oldName = change.status === "new" ? "(new file)" : `${labelOf(before)}/${change.path}`;
  const newName = `${labelOf(after)}/${change.path}`;
  const lines = [paint("bold", `--- ${oldName}`), paint("bold", `+++ ${newName}`)];
  for (const hunk of change.hunks) {
    lines.push(paint("cyan", hunkHeader(hunk)));
    for (const line of hunk.lines) lines.push(paintLine(line, paint));
  }
  return lines;
}

// Unified diff convention: an empty range starts at the line before it, so a new file reads "-0,0".
function hunkHeader({ oldStart, oldLines, newStart, newLines }) {
  const from = oldLines === 0 ? oldStart - 1 : oldStart;
  const to = newLines === 0 ? newStart - 1 : newStart;
  return `@@ -${from},${oldLines} +${to},${newLines} @@`;
}

function paintLine(line, paint) {
  if (line.startsWith("+")) return paint("green", line);
  if (line.startsWith("-")) return paint("red", line);
  return line;
}

const restoredFrom = (change) => `from step ${change.from.id}`;
const statusNote = (change) => (change.status === "restored" ? `restored ${restoredFrom(change)}` : change.status);

function statLines(changes, paint) {
  const width = Math.max(...changes.map((change) => change.path.length));
  const countWidth = Math.max(...changes.map((c) => String(Math.max(c.added, c.removed)).length)) + 1;
  const lines = changes.map((change) => {
    const added = paint("green", `+${change.added}`.padStart(countWidth));
    const removed = paint("red", `-${change.removed}`.padStart(countWidth));
    const note = change.status === "changed" ? "" : `  (${statusNote(change)})`;
    return ` ${change.path.padEnd(width)} | ${added} ${removed}${note}`;
  });
  const added = changes.reduce((sum, change) => sum + change.added, 0);
  const removed = changes.reduce((sum, change) => sum + change.removed, 0);
  const files = changes.length === 1 ? "1 file" : `${changes.length} files`;
  lines.push(` ${files} changed, ${added} insertions(+), ${removed} deletions(-)`);
  return lines;
}
