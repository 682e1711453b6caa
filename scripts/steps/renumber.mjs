// What renumbering rewrites in the repository's text: every later step's folder name wherever it appears whole, and,
// in Markdown, the numbers that name those steps (gen markers, `run.mjs N`, link texts, bare mentions, the title).
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const pad = (number) => String(number).padStart(2, "0");
// Keeps the way a number was written: "09" stays two digits, "9" one.
const written = (old, number) => (old.length === 2 ? pad(number) : String(number));

// The files that may name a step folder: the tooling, the chapters and their records, the lockfile and each step's
// package.json. Step sources name no step (CONTRIBUTING: "Nothing else names a step folder").
const TEXT = /\.(md|json|ya?ml|mjs|cjs|js|ts|mts)$/;
const SKIP = new Set(["node_modules", ".git", "exercises"]);

/** Files of `root` that renumbering rewrites, as "/"-separated relative paths. */
export function textFiles(root) {
  const files = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(root, rel))) {
      const child = rel === "" ? name : `${rel}/${name}`;
      if (SKIP.has(name)) continue;
      if (/^steps\/\d\d-[^/]+$/.test(child)) {
        if (existsSync(path.join(root, child, "package.json"))) files.push(`${child}/package.json`);
      } else if (statSync(path.join(root, child)).isDirectory()) walk(child);
      else if (TEXT.test(name)) files.push(child);
    }
  };
  walk("");
  return files;
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Replaces each whole folder name of `renames` (old → new) at once, so that no name is rewritten twice. */
export function renameFolders(text, renames) {
  if (renames.size === 0) return text;
  const names = [...renames.keys()].map(escape).join("|");
  return text.replace(new RegExp(`(?<![\\w-])(${names})(?![\\w-])`, "g"), (name) => renames.get(name));
}

const MENTION = /\b((?:chapters?|steps?)\s+)(\d{1,2}\b(?:\s*(?:,|–|-|to|and|or|&)\s*\d{1,2}\b)*)/gi;
const LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const GEN_NUMBER = /^(<!-- gen (?:run|wire|diff|stat|exercise|part|map) )(\d+)/;
const RUN_MJS = /(steps\/run\.mjs )(\d+)\b/g;

/** Renumbers the Markdown of one file; `shift` maps an old step number to its new one. */
export function renumberMarkdown(text, shift) {
  const bump = (old) => written(old, shift(Number(old)));
  const prose = (segment) => segment.replace(MENTION, (_, word, numbers) => word + numbers.replace(/\d{1,2}\b/g, bump));
  return text
    .split("\n")
    .map((line) => {
      line = line
        .replace(GEN_NUMBER, (_, head, number) => head + bump(number))
        .replace(RUN_MJS, (_, h, n) => h + bump(n));
      line = line.replace(/^(# )(\d\d)( · )/, (_, head, number, tail) => head + bump(number) + tail);
      let out = "";
      let last = 0;
      for (const link of line.matchAll(LINK)) {
        out += prose(line.slice(last, link.index));
        const target = /^(\d\d)-[a-z0-9-]+\.md$/.exec(path.posix.basename(link[2].split("#")[0]));
        const text = target
          ? link[1].replace(/\b\d{1,2}\b/g, (n) => (Number(n) === Number(target[1]) ? bump(n) : n))
          : prose(link[1]);
        out += `[${text}](${link[2]})`;
        last = link.index + link[0].length;
      }
      return out + prose(line.slice(last));
    })
    .join("\n");
}

/** Rewrites every text file of `root` for `renames`; returns the files it changed. */
export function rewriteRepository(root, renames, shift) {
  const changed = [];
  for (const rel of textFiles(root)) {
    const before = readFileSync(path.join(root, rel), "utf8");
    const renumbered = rel.endsWith(".md") && !rel.startsWith("scripts/") ? renumberMarkdown(before, shift) : before;
    const after = renameFolders(renumbered, renames);
    if (after === before) continue;
    writeFileSync(path.join(root, rel), after);
    changed.push(rel);
  }
  return changed;
}

/** The lockfile with step `from`'s importer copied as `to`'s, right after it (importers are sorted by path). */
export function copyImporter(lock, from, to) {
  const lines = lock.split("\n");
  const start = lines.indexOf(`  steps/${from}:`);
  if (start === -1) return lock;
  // The block runs to the next key at two spaces or less: the next importer or the next section.
  let end = start + 1;
  while (end < lines.length && !/^ {0,2}\S/.test(lines[end])) end++;
  const copy = [`  steps/${to}:`, ...lines.slice(start + 1, end)];
  return [...lines.slice(0, end), ...copy, ...lines.slice(end)].join("\n");
}
