// What a file reaches: its static imports, and the relative paths it names in strings (programs it starts, fixtures).
// Read with regular expressions, not a parser: the steps are plain ESM, and a missed edge only makes a check stricter.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
// `import x from "y"`, `import type { x } from "y"`, `export * from "y"`, `import "y"`, `import("y")`.
const IMPORT_PATTERNS = [
  /(?:^|[^\w$.])(?:import|export)\s[^'"`;]*?\bfrom\s*(["'])([^"'\n]+)\1/g,
  /(?:^|[^\w$.])import\s*(["'])([^"'\n]+)\1/g,
  /(?:^|[^\w$.])import\s*\(\s*(["'`])([^"'`$\n]+)\1\s*\)/g,
];
// A string or template literal that starts like a relative path; a template stops at its first `${`.
const RELATIVE_STRING = /(["'`])(\.{1,2}\/[^"'`\n$]*)/g;

export const isCode = (file) => CODE.test(file);

/** The module specifiers a source text imports statically, in order of appearance. */
export function importsOf(text) {
  const found = [];
  for (const pattern of IMPORT_PATTERNS) for (const match of text.matchAll(pattern)) found.push(match[2]);
  return found;
}

/** Every relative path written as a string, or as the fixed start of a template literal. */
export function relativePathsOf(text) {
  return [...text.matchAll(RELATIVE_STRING)].map((match) => match[2]);
}

/** Files below `dir` (node_modules left out), as absolute paths. */
export function filesBelow(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesBelow(full));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}

/** What a relative path from `file` names: ["file", abs], ["folder", abs] or ["missing", abs]. */
export function resolveRelative(file, relative) {
  const target = path.resolve(path.dirname(file), relative);
  if (!existsSync(target)) return ["missing", target];
  return [statSync(target).isDirectory() ? "folder" : "file", target];
}

/**
 * Walks from `roots` (absolute paths) and returns `{ files, missing, unresolved }`: every file reached, every path
 * named that does not exist, and every import that names a missing file. `strings: false` follows imports only.
 */
export function closure(roots, { strings = true } = {}) {
  const files = new Set();
  const missing = new Set();
  const unresolved = [];
  const queue = [...roots];
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    if (isCode(file)) queue.push(file);
  };
  roots.forEach((root) => files.add(root));
  while (queue.length > 0) {
    const file = queue.shift();
    const text = readFileSync(file, "utf8");
    for (const specifier of importsOf(text).filter((s) => s.startsWith("."))) {
      const [kind, target] = resolveRelative(file, specifier);
      if (kind === "file") visit(target);
      else unresolved.push(`${path.basename(file)} imports ${specifier}`);
    }
    if (!strings) continue;
    for (const relative of relativePathsOf(text)) {
      const [kind, target] = resolveRelative(file, relative);
      if (kind === "file") visit(target);
      else if (kind === "folder") filesBelow(target).forEach(visit);
      else missing.add(target);
    }
  }
  return { files, missing, unresolved };
}
