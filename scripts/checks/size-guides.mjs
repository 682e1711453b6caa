// STYLE.md's size guides for files (~150 lines) and functions (~30) as warnings, never errors, for the steps and the
// tooling alike. Functions are found by their first line and a brace count: cheap (no parser to load in every run),
// and good enough for a hint, Prettier's signatures wrapped over several lines included.
import { readdirSync } from "node:fs";
import path from "node:path";
import { isSource, isTestFile, readStepFile } from "../../steps/runner/shared/repo.mjs";

export const FILE_LINES = 150;
export const FUNCTION_LINES = 30;

// The first line of a signature: `function f(`, `async f(`, `#f(`, `get f(`, `const f = (` or `const f = async x =>`,
// whatever follows on that line (its parameters, or the start of a list Prettier wrapped).
const FUNCTION = String.raw`function\*?\s+([\w$]+)\s*[(<]`;
const METHOD = String.raw`(?:(?:public|private|protected|static|get|set|async|override)\s+)*(#?[\w$]+)\s*[(<]`;
const ARROW = String.raw`(?:const|let)\s+([\w$]+)(?:\s*:\s*[^=]+)?\s*=\s*(?:async\s+)?(?:\(|[\w$]+\s*=>)`;
const SIGNATURE = new RegExp(
  String.raw`^\s*(?:return\s+)?(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:${FUNCTION}|${METHOD}|${ARROW})`,
);
const KEYWORDS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "with",
  "return",
  "await",
  "new",
  "super",
  "typeof",
]);
// How far a wrapped signature may run before its body's brace; a call spread over lines is not a signature.
const SIGNATURE_LINES = 12;

const lineCount = (text) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);
// A line's code with its strings, regular expressions and trailing comment emptied, so that their braces do not count.
const LITERALS =
  /(["'`])(?:\\.|(?!\1).)*\1|(?<=^|[(=,:[!&|?{};]\s*)\/(?![/*])(?:\\.|\[(?:\\.|[^\]])*\]|[^/\\[])+\/[a-z]*/g;
const code = (line) =>
  line
    .replace(LITERALS, '""')
    .replace(/\/\/.*$/, "")
    .trimEnd();

/** The line that ends the signature starting at `start` with the body's `{`, or -1 when none does. */
function bodyStart(lines, start) {
  for (let i = start; i < Math.min(lines.length, start + SIGNATURE_LINES); i++) {
    const line = code(lines[i]);
    if (/(\)|=>|>|\w|\])\s*\{$/.test(line) || /^\s*\)\s*(:\s*[^=]+)?\{$/.test(line)) return i;
    if (/[;,]$/.test(line) && i === start) return -1;
    if (line.endsWith(";")) return -1;
  }
  return -1;
}

function closingLine(lines, start) {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    for (const char of code(lines[i])) {
      if (char === "{") depth += 1;
      else if (char === "}") depth -= 1;
    }
    if (depth <= 0 && i > start) return i;
    if (depth <= 0 && code(lines[i]).endsWith("}")) return i;
  }
  return lines.length - 1;
}

/** Named functions longer than FUNCTION_LINES, counted from the first line of the signature to the closing brace. */
export function longFunctions(text) {
  const lines = text.split("\n");
  const found = [];
  lines.forEach((line, i) => {
    const match = line.match(SIGNATURE);
    const name = match && (match[1] ?? match[2] ?? match[3]);
    if (!name || KEYWORDS.has(name)) return;
    const open = bodyStart(lines, i);
    if (open === -1) return;
    const end = closingLine(lines, open);
    if (end - i + 1 > FUNCTION_LINES) found.push({ name, line: i + 1, length: end - i + 1 });
  });
  return found;
}

/** Warnings for the files `rels` of `dir`, shown as under `shownDir`: long files and long functions. */
function warningsFor(shownDir, dir, rels) {
  const warnings = [];
  for (const rel of rels) {
    const text = readStepFile(dir, rel);
    const lines = lineCount(text);
    if (lines > FILE_LINES) warnings.push(`${shownDir}/${rel} has ${lines} lines (guide: about ${FILE_LINES})`);
    for (const fn of longFunctions(text)) {
      warnings.push(`${shownDir}/${rel}:${fn.line} ${fn.name} is ${fn.length} lines (guide: ${FUNCTION_LINES})`);
    }
  }
  return warnings;
}

/** Warnings for one step's source files. */
export function sizeWarnings(name, dir, files) {
  return warningsFor(`steps/${name}`, dir, files.filter(isSource));
}

/** The files under `dir`, relative to it, outside installed packages and hidden folders. */
function walk(dir, prefix = "") {
  let entries;
  try {
    entries = readdirSync(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : walk(dir, rel);
    return entry.isFile() ? [rel] : [];
  });
}

/** The code files of a tooling folder (`scripts`, `steps/runner`), tests included, relative to it. */
export const toolingFiles = (root, shownDir) =>
  walk(path.join(root, shownDir))
    .filter((rel) => /\.(ts|mts|cts|js|mjs|cjs)$/.test(rel))
    .sort();

/** Warnings for a tooling folder: its code outside tests and their helpers. */
export function toolingSizeWarnings(root, shownDir) {
  const code = (rel) => !isTestFile(rel) && !/(^|\/)test\//.test(rel);
  return warningsFor(shownDir, path.join(root, shownDir), toolingFiles(root, shownDir).filter(code));
}
