// Reads a chapter into its `<!-- gen KIND ARGS -->` blocks and writes generated content back.
// One line-by-line pass with fence tracking, so markers shown inside a code sample are never taken as real.

export const KINDS = ["code", "diff", "stat", "run", "wire", "exec", "file", "exercise", "part", "map"];
const GEN_OPEN = /^<!-- gen (\S+)(?: (.*?))? -->$/;
const GEN_CLOSE = /^<!-- \/gen -->$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HAND_WRITTEN = /^<!-- hand-written: \S.* -->$/;
const TS_LANGS = new Set(["ts", "typescript", "tsx", "mts", "cts"]);

/** Finds gen blocks and rule breaks; line numbers are 1-based, `open`/`close` are marker indexes. */
export function parseDoc(text) {
  const lines = text.split("\n");
  const blocks = [];
  const errors = [];
  let current;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (FENCE.test(line)) {
      // Generated content is fenced too, so a marker inside any fence is just text.
      if (current === undefined) checkHandWritten(lines, i, errors);
      i = fenceEnd(lines, i);
    } else if (GEN_OPEN.test(line)) {
      if (current) errors.push({ line: i + 1, message: `gen block opened inside the block of line ${current.line}` });
      current = openBlock(line, i, errors);
    } else if (GEN_CLOSE.test(line)) {
      if (current === undefined) errors.push({ line: i + 1, message: "<!-- /gen --> without an opening marker" });
      else if (current.kind) blocks.push({ ...current, close: i });
      current = undefined;
    }
  }
  if (current) errors.push({ line: current.line, message: "gen block is never closed with <!-- /gen -->" });
  return { lines, blocks, errors };
}

function openBlock(line, i, errors) {
  const [, kind, args = ""] = line.match(GEN_OPEN);
  if (!KINDS.includes(kind)) {
    errors.push({ line: i + 1, message: `unknown gen kind "${kind}" (known: ${KINDS.join(", ")})` });
    return { line: i + 1 };
  }
  return { kind, args: args.trim(), line: i + 1, open: i };
}

// A TypeScript sample outside gen blocks is allowed only when it says why it is not real code.
function checkHandWritten(lines, i, errors) {
  const lang = lines[i].match(FENCE)[2].toLowerCase();
  if (!TS_LANGS.has(lang)) return;
  if (i > 0 && HAND_WRITTEN.test(lines[i - 1])) return;
  errors.push({
    line: i + 1,
    message: "```" + lang + " block outside a gen block; generate it or mark it <!-- hand-written: why -->",
  });
}

// Index of the line closing the fence opened at `i` (same character, at least as long), or the last line.
function fenceEnd(lines, i) {
  const fence = lines[i].match(FENCE)[1];
  const close = new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`);
  for (let j = i + 1; j < lines.length; j++) if (close.test(lines[j])) return j;
  return lines.length - 1;
}

/** A fenced block; the fence grows when the content itself contains a fence. */
export function fenced(content, lang) {
  const longest = Math.max(2, ...(content.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const body = content === "" ? [] : content.replace(/\n$/, "").split("\n");
  return [fence + lang, ...body, fence];
}

/** The lines currently between a block's markers. */
export const currentBody = (lines, block) => lines.slice(block.open + 1, block.close);

/** Replaces every block's body, given `bodies` in the same order; blocks are spliced from the end. */
export function rewrite(lines, blocks, bodies) {
  const out = [...lines];
  for (let b = blocks.length - 1; b >= 0; b--) {
    if (bodies[b] === undefined) continue;
    out.splice(blocks[b].open + 1, blocks[b].close - blocks[b].open - 1, ...bodies[b]);
  }
  return out.join("\n");
}
