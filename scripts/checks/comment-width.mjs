// Prettier wraps code at 120 columns but never a comment: this rule holds comments to the same width. A line counts as
// a comment when it starts with //, /* or * (a JSDoc line), or when code ends in a // comment that takes it past 120.
import { readStepFile } from "../../steps/runner/shared/repo.mjs";

export const COMMENT_WIDTH = 120;
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Lines of `text` whose comment takes them past COMMENT_WIDTH characters, as 1-based line numbers. */
export function wideComments(text) {
  const wide = [];
  text.split("\n").forEach((line, i) => {
    if ([...line].length <= COMMENT_WIDTH) return;
    const trimmed = line.trimStart();
    const trailing = line.lastIndexOf(" // ");
    const ownLine = trimmed.startsWith("//") || trimmed.startsWith("/*") || trimmed.startsWith("* ");
    if (ownLine || (trailing > 0 && [...line.slice(0, trailing)].length <= COMMENT_WIDTH)) wide.push(i + 1);
  });
  return wide;
}

/** An error for each comment line over the width in the code files `rels` of `dir`, shown under `shownDir`. */
export function checkCommentWidth(shownDir, dir, rels, problems) {
  for (const rel of rels.filter((rel) => CODE.test(rel))) {
    for (const line of wideComments(readStepFile(dir, rel) ?? "")) {
      problems.push(
        `${shownDir}/${rel}:${line}: a comment past ${COMMENT_WIDTH} characters; wrap it (Prettier does not)`,
      );
    }
  }
}
