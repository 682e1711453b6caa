// A chapter names another chapter or step only through a link to its file, so renumbering (step:new) rewrites the
// number and its target together. Prose only: fenced code, generated blocks and inline code are left as they are.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const GEN_OPEN = /^<!-- gen \S+/;
const GEN_CLOSE = /^<!-- \/gen -->$/;
// "chapter 18", "Step 06's", "steps 05–09", "chapters 23 and 27": every number of the list is a mention.
const MENTION = /\b(?:chapters?|steps?)\s+\d{1,2}\b(?:\s*(?:,|–|-|to|and|or|&)\s*\d{1,2}\b)*/gi;
const NUMBER = /\d{1,2}\b/g;
const LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const CHAPTER_FILE = /^(\d\d)-[a-z0-9-]+\.md$/;

/** Prose lines of a chapter as [index, text]: outside fences and gen blocks, inline code blanked to spaces. */
export function proseLines(text) {
  const lines = text.split("\n");
  const out = [];
  let fence;
  let inGen = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opens = line.match(FENCE);
    if (fence) {
      if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = undefined;
    } else if (opens) fence = opens[1];
    else if (GEN_OPEN.test(line)) inGen = true;
    else if (GEN_CLOSE.test(line)) inGen = false;
    else if (!inGen) out.push([i, line.replace(/`[^`]*`/g, (code) => " ".repeat(code.length))]);
  }
  return out;
}

/** Links whose target is a chapter file (NN-slug.md, optionally with a folder or #anchor), with their text's span. */
export function chapterLinks(line) {
  const links = [];
  for (const match of line.matchAll(LINK)) {
    const target = match[2].split("#")[0];
    const file = path.posix.basename(target);
    const numbered = CHAPTER_FILE.exec(file);
    if (!numbered) continue;
    const start = match.index + 1;
    links.push({ target, file, number: Number(numbered[1]), start, end: start + match[1].length });
  }
  return links;
}

/** Each number of each bare mention in `line`, with its column. */
export function mentions(line) {
  const found = [];
  for (const match of line.matchAll(MENTION)) {
    const words = match[0].replace(/^\D+/, (head) => " ".repeat(head.length));
    for (const number of words.matchAll(NUMBER)) {
      found.push({ number: Number(number[0]), column: match.index + number.index, text: match[0] });
    }
  }
  return found;
}

/**
 * What docs:check says of `doc`'s chapter references: a link to a chapter file that does not exist, and a step or
 * chapter number outside a link to that chapter's file. `chapters` is the set of file names in docs/.
 */
export function chapterRefProblems(doc, text, chapters) {
  const problems = [];
  const docDir = path.posix.dirname(doc);
  for (const [i, line] of proseLines(text)) {
    const links = chapterLinks(line);
    for (const link of links) {
      const resolved = path.posix.join(docDir, link.target);
      if (!(resolved.startsWith("docs/") && chapters.has(path.posix.basename(resolved)))) {
        problems.push(`${doc}:${i + 1}: link to ${link.target}, which is no chapter`);
      }
    }
    for (const mention of mentions(line)) {
      const within = links.find((link) => link.start <= mention.column && mention.column < link.end);
      if (within?.number === mention.number) continue;
      const why = within ? `its link goes to ${within.target}` : "name it through a link to its chapter";
      problems.push(`${doc}:${i + 1}: "${mention.text}" names ${mention.number} by number; ${why}`);
    }
  }
  return problems;
}

/** The file names in `root`/docs, for chapterRefProblems. */
export const chapterFiles = (root) =>
  new Set(
    existsSync(path.join(root, "docs"))
      ? readdirSync(path.join(root, "docs")).filter((name) => name.endsWith(".md"))
      : [],
  );
