// File-level helpers for check-steps: what a step folder contains and when two copies count as the same.
// package.json is compared as parsed JSON without name, description and lesson, the fields every step must change.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const IGNORED = new Set(["node_modules", ".DS_Store"]);

/** Every file below `dir`, as sorted "/"-separated paths relative to it; installs and logs are not part of a step. */
export function listFiles(dir, prefix = "") {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (IGNORED.has(entry.name) || entry.name.endsWith(".log")) continue;
    const rel = prefix + entry.name;
    if (entry.isDirectory()) files.push(...listFiles(path.join(dir, entry.name), `${rel}/`));
    else files.push(rel);
  }
  return files.sort();
}

export function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { error: error.message };
  }
}

// The bytes that must match the previous step's; an unparsable package.json is compared as it is.
function comparable(dir, rel) {
  const bytes = readFileSync(path.join(dir, rel));
  if (rel !== "package.json") return bytes;
  const pkg = readJson(path.join(dir, rel));
  if (pkg.error) return bytes;
  delete pkg.name;
  delete pkg.description;
  delete pkg.lesson;
  return Buffer.from(JSON.stringify(pkg, null, 2));
}

/** How `rel` changed from `prevDir` to `dir`: "new", "removed", "changed" or undefined when identical. */
export function changeOf(prevDir, dir, rel) {
  const before = existsSync(path.join(prevDir, rel)) && statSync(path.join(prevDir, rel)).isFile();
  const after = existsSync(path.join(dir, rel)) && statSync(path.join(dir, rel)).isFile();
  if (!before && !after) return "missing";
  if (!before) return "new";
  if (!after) return "removed";
  return comparable(prevDir, rel).equals(comparable(dir, rel)) ? undefined : "changed";
}

export const isSource = (rel) => /\.(ts|mts|cts)$/.test(rel) && !/\.test\.[mc]?ts$/.test(rel);

/** A file's text, or "" when the file does not exist. */
export function readText(dir, rel) {
  return existsSync(path.join(dir, rel)) ? readFileSync(path.join(dir, rel), "utf8") : "";
}
