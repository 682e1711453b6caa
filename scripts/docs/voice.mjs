// The style guide's voice rule, checked: no "simply", no "Let's", no emoji, in a chapter's prose and in the comments
// of the code it shows (`gen code` blocks). Other code, inline code and commands are not prose, so they are skipped.
import { currentBody, parseDoc } from "./docblocks.mjs";

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// An emoji is a character shown as one by default, or any pictograph asked for as one (U+FE0F); "↔" is neither.
const WORDS = [
  { name: '"simply"', regexp: /\bsimply\b/i },
  { name: `"Let's"`, regexp: /\blet['’]s\b/i },
  { name: "an emoji", regexp: /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F/u },
];

// The line closing the fence opened at `i`: the same character, at least as many.
function fenceEnd(lines, i) {
  const fence = lines[i].match(FENCE)[1];
  const close = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`);
  for (let j = i + 1; j < lines.length; j++) if (close.test(lines[j])) return j;
  return lines.length - 1;
}

const withoutInlineCode = (line) => line.replace(/(`+)[^`]*?\1/g, "");

/** The comment text on one line of code, as far as a line can tell: after `//`, or inside a block comment. */
export function commentOf(line, inBlock) {
  if (inBlock) {
    const end = line.indexOf("*/");
    return end === -1 ? { text: line, inBlock: true } : { text: line.slice(0, end), inBlock: false };
  }
  // A "//" inside a string ("http://…") is not a comment: only one outside quotes counts.
  const code = line.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, (string) => " ".repeat(string.length));
  const slash = code.indexOf("//");
  const open = code.indexOf("/*");
  if (open !== -1 && (slash === -1 || open < slash)) return commentOf(line.slice(open + 2), true);
  return { text: slash === -1 ? "" : line.slice(slash + 2), inBlock: false };
}

function problemsIn(text, where) {
  return WORDS.filter(({ regexp }) => regexp.test(text)).map(({ name }) => `${where}: ${name}`);
}

function codeBlockProblems(doc, lines, block) {
  const problems = [];
  let inBlock = false;
  currentBody(lines, block).forEach((line, i) => {
    if (FENCE.test(line)) return;
    const comment = commentOf(line, inBlock);
    inBlock = comment.inBlock;
    const where = `${doc}:${block.open + 2 + i}: a comment in gen code ${block.args}`;
    problems.push(...problemsIn(comment.text, where));
  });
  return problems;
}

/** Each line of a chapter that breaks the voice rule, as "docs/NN-slug.md:LINE: what, in what". */
export function voiceProblems(doc, text) {
  const { lines, blocks } = parseDoc(text);
  const problems = [];
  const inBlock = new Set();
  for (const block of blocks) {
    for (let i = block.open; i <= block.close; i++) inBlock.add(i);
    if (block.kind === "code") problems.push(...codeBlockProblems(doc, lines, block));
  }
  for (let i = 0; i < lines.length; i++) {
    if (inBlock.has(i) || /^<!--.*-->$/.test(lines[i])) continue;
    if (FENCE.test(lines[i])) i = fenceEnd(lines, i);
    else problems.push(...problemsIn(withoutInlineCode(lines[i]), `${doc}:${i + 1}: prose`));
  }
  return problems;
}
