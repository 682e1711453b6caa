// What a step's chapter says about its exercise: where it shows each blank (the `gen code` blocks whose region holds
// it, and the heading above), and the demo output it records. Read with the docs check's own parser.
import { existsSync, readFileSync } from "node:fs";
import { currentBody, parseDoc } from "../../../scripts/docs/docblocks.mjs";
import { findRegion } from "../../../scripts/docs/regions.mjs";
import { byCodeUnit, readStepFile } from "../shared/repo.mjs";
import { chapterOf } from "./state.mjs";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
export const LIST_HEADING = "Build it yourself";

/** The chapter's headings outside code fences, as { line (1-based), title }. */
function headingsOf(lines) {
  const headings = [];
  let fence;
  lines.forEach((line, i) => {
    const opened = FENCE.exec(line)?.[1];
    if (fence === undefined && opened) fence = opened;
    else if (fence !== undefined && opened?.[0] === fence[0] && opened.length >= fence.length && line.trim() === opened)
      fence = undefined;
    else if (fence === undefined && HEADING.test(line)) headings.push({ line: i + 1, title: HEADING.exec(line)[2] });
  });
  return headings;
}

/** The parts of a step's chapter the exercise uses; an absent chapter has none of them. */
export function readChapter(step) {
  const file = chapterOf(step);
  if (!existsSync(file)) return { file, exists: false, shows: [], headings: [], runOutput: undefined };
  const { lines, blocks } = parseDoc(readFileSync(file, "utf8"));
  const headings = headingsOf(lines);
  const prefix = `steps/${step.folder}/`;
  const shows = blocks
    .filter((block) => block.kind === "code" && block.args.startsWith(prefix))
    .map((block) => {
      const [rel, region] = block.args.slice(prefix.length).split("#");
      const heading = headings.filter((h) => h.line < block.line).at(-1);
      return { rel, region, line: block.line, heading, span: spanOf(step, rel, region) };
    });
  const run = blocks.find((block) => block.kind === "run" && Number(block.args) === step.number);
  // The body is fenced: its first and last lines are the fence.
  const runOutput = run ? currentBody(lines, run).slice(1, -1).join("\n") : undefined;
  return { file, exists: true, shows, headings, runOutput };
}

/** The 1-based lines a block shows of step N's file: the whole file, or the inside of its region. */
function spanOf(step, rel, region) {
  const text = readStepFile(step.dir, rel);
  if (text === null) return undefined;
  if (region === undefined) return { from: 1, to: Infinity };
  try {
    const { open, close } = findRegion(text.split("\n"), region);
    return { from: open + 2, to: close };
  } catch {
    return undefined; // The docs check reports a broken region; here it just shows nothing.
  }
}

/** The first block of the chapter that shows `blank` (its line as step N has it), or undefined. */
export function whereShown(chapter, blank) {
  return chapter.shows.find(
    (show) => show.rel === blank.file && show.span && blank.line >= show.span.from && blank.line <= show.span.to,
  );
}

/** The blanks in the order the chapter shows them, then the others by file and line. */
export function inChapterOrder(chapter, blanks) {
  const rank = (blank) => {
    const show = whereShown(chapter, blank);
    return show === undefined ? Infinity : chapter.shows.indexOf(show);
  };
  return [...blanks].sort((a, b) => rank(a) - rank(b) || byCodeUnit(a.file, b.file) || a.line - b.line);
}

/** Where the chapter teaches `blank`, in words: its section, or the "Build it yourself" list. */
export function sectionOf(chapter, blank) {
  if (!chapter.exists) return undefined;
  const show = whereShown(chapter, blank);
  if (show?.heading) return { title: show.heading.title, line: show.line };
  const list = chapter.headings.find((heading) => heading.title === LIST_HEADING);
  return list ? { title: LIST_HEADING, line: list.line } : undefined;
}
