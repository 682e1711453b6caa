// STYLE.md's size guides for files (~150 lines) and functions (~30) as warnings, never errors.
// Function length uses a plain brace count from a one-line signature: cheap, and good enough for a hint.
import { isSource, readStepFile } from "../../steps/runner/shared/repo.mjs";

export const FILE_LINES = 150;
export const FUNCTION_LINES = 30;

// One-line signatures ending in "{": `function f(…) {`, `async f(…): T {`, `#f(…) {`, `const f = (…) => {`.
const PARAMS_AND_TYPE = String.raw`\s*\(.*\)(?:\s*:\s*[^={]+)?`;
const FUNCTION = String.raw`function\*?\s+([\w$]+)` + PARAMS_AND_TYPE;
const METHOD = String.raw`(?:(?:public|private|static|get|set|async)\s+)*(#?[\w$]+)` + PARAMS_AND_TYPE;
const ARROW = String.raw`(?:const|let)\s+([\w$]+)\s*=\s*(?:async\s+)?(?:\([^)]*\)|[\w$]+)(?:\s*:\s*[^=]+)?\s*=>`;
const SIGNATURE = new RegExp(String.raw`^\s*(?:export\s+)?(?:async\s+)?(?:${FUNCTION}|${METHOD}|${ARROW})\s*\{\s*$`);
const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "with"]);

const lineCount = (text) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

/** Functions longer than FUNCTION_LINES, counted from signature to closing brace. */
export function longFunctions(text) {
  const lines = text.split("\n");
  const found = [];
  lines.forEach((line, i) => {
    const match = line.match(SIGNATURE);
    const name = match && (match[1] ?? match[2] ?? match[3]);
    if (!name || KEYWORDS.has(name)) return;
    const end = closingLine(lines, i);
    if (end - i + 1 > FUNCTION_LINES) found.push({ name, line: i + 1, length: end - i + 1 });
  });
  return found;
}

function closingLine(lines, start) {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    for (const char of lines[i].replace(/\/\/.*$/, "")) {
      if (char === "{") depth += 1;
      else if (char === "}") depth -= 1;
    }
    if (depth <= 0) return i;
  }
  return lines.length - 1;
}

/** Warnings for one step: long source files and long functions. */
export function sizeWarnings(name, dir, files) {
  const warnings = [];
  for (const rel of files.filter(isSource)) {
    const text = readStepFile(dir, rel);
    const lines = lineCount(text);
    if (lines > FILE_LINES) warnings.push(`steps/${name}/${rel} has ${lines} lines (guide: about ${FILE_LINES})`);
    for (const fn of longFunctions(text)) {
      warnings.push(`steps/${name}/${rel}:${fn.line} ${fn.name} is ${fn.length} lines (guide: ${FUNCTION_LINES})`);
    }
  }
  return warnings;
}
