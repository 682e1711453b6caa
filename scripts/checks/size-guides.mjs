// STYLE.md's size guides for files (~150 lines) and functions (~30) as warnings, never errors, for the steps and the
// tooling alike. Functions are found in the syntax tree, so a signature Prettier wraps over several lines still counts.
import { readdirSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { isSource, isTestFile, readStepFile } from "../../steps/runner/shared/repo.mjs";

export const FILE_LINES = 150;
export const FUNCTION_LINES = 30;

const lineCount = (text) => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

/**
 * The name a function-like node is known by: its own, its method's, the variable or property it is assigned to, or the
 * call it is passed to.
 */
function nameOf(node, file) {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && ts.isIdentifier(parent.name))
    return parent.name.text;
  if (ts.isCallExpression(parent)) return `a function passed to ${parent.expression.getText(file).slice(0, 40)}`;
  return undefined;
}

/** Named functions longer than FUNCTION_LINES, counted from the first line of the signature to the closing brace. */
export function longFunctions(text, fileName = "file.ts") {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body && ts.isBlock(node.body)) {
      const name = nameOf(node, file);
      const line = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const length = file.getLineAndCharacterOfPosition(node.end).line - line + 1;
      if (name && length > FUNCTION_LINES) found.push({ name, line: line + 1, length });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Warnings for the files `rels` of `dir`, shown as under `shownDir`: long files and long functions. */
function warningsFor(shownDir, dir, rels) {
  const warnings = [];
  for (const rel of rels) {
    const text = readStepFile(dir, rel);
    const lines = lineCount(text);
    if (lines > FILE_LINES) warnings.push(`${shownDir}/${rel} has ${lines} lines (guide: about ${FILE_LINES})`);
    for (const fn of longFunctions(text, rel)) {
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
