// One meaning per name across the tutorial. A name a step declares at the top of a file (every export, and every
// class, interface and type) keeps its kind and its file in every step that declares it, and is not also a name
// imported from a package; where the same meaning truly lives in two files (a constant that moved when a part began
// again), CONTRIBUTING's glossary lists the name. And a file that keeps its path into the next step keeps some of the
// names it exports: a file whose exports all change is another file under an old name.
import path from "node:path";
import { readFileSync } from "node:fs";
import { readStepFile } from "../../steps/runner/shared/repo.mjs";

const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
// Tests, their helpers and fixture programs name what they like: they are not what a learner builds.
const IS_LESSON = (rel) =>
  CODE.test(rel) &&
  rel.startsWith("src/") &&
  !/\.test\.[mc]?[jt]s$/.test(rel) &&
  !rel.startsWith("src/test/") &&
  !rel.startsWith("src/fixtures/");
const DECLARATION =
  /^(export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|interface|type|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/;
const PACKAGE_IMPORT = /^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+["']([^."'][^"']*)["']/;
const KINDS = { class: "class", interface: "type", type: "type" };

/** The top-level names of one file: `{ name, kind, file }`, kind "class", "type", "value" or "import". */
export function namesOf(text, file) {
  const names = [];
  // An import's braces may span lines: joined first, so that each import is one line.
  const joined = text.replace(/^import\s+(?:type\s+)?\{[^}]*\}/gm, (braces) => braces.replace(/\s*\n\s*/g, " "));
  for (const line of joined.split("\n")) {
    const declared = DECLARATION.exec(line);
    if (declared) {
      const [, exported, keyword, name] = declared;
      const kind = KINDS[keyword] ?? "value";
      if (exported || kind !== "value") names.push({ name, kind, file });
    }
    const imported = PACKAGE_IMPORT.exec(line);
    for (const part of imported ? imported[1].split(",") : []) {
      const local = part
        .replace(/^\s*type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1)
        .trim();
      if (local) names.push({ name: local, kind: "import", file: imported[2] });
    }
  }
  return names;
}

/** The names CONTRIBUTING.md's glossary lists: every `name` in the first column of its table. */
export function glossaryNames(root) {
  let text;
  try {
    text = readFileSync(path.join(root, "CONTRIBUTING.md"), "utf8");
  } catch {
    return new Set();
  }
  const section = text.split(/^## /m).find((part) => part.startsWith("Glossary")) ?? "";
  const firstCells = section
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .map((line) => line.split("|")[1]);
  return new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1])));
}

const range = (numbers) => {
  const sorted = [...numbers].sort();
  return sorted.length === 1 ? `step ${sorted[0]}` : `steps ${sorted[0]}-${sorted.at(-1)}`;
};

/**
 * An error for each name with two kinds or two files and no glossary entry, and for each file whose exports all
 * change.
 */
export function checkNames(root, steps, problems) {
  const uses = new Map(); // name -> "kind in file" -> step numbers
  const exportsOf = steps.map((step) => {
    const byFile = new Map();
    for (const rel of step.files.filter(IS_LESSON)) {
      const names = namesOf(readStepFile(step.dir, rel) ?? "", path.posix.basename(rel));
      byFile.set(rel, new Set(names.filter((n) => n.kind !== "import").map((n) => n.name)));
      for (const { name, kind, file } of names) {
        const where = kind === "import" ? "imported from a package" : `${kind} in ${file}`;
        if (!uses.has(name)) uses.set(name, new Map());
        if (!uses.get(name).has(where)) uses.get(name).set(where, new Set());
        uses.get(name).get(where).add(step.name.slice(0, 2));
      }
    }
    return byFile;
  });
  const glossary = glossaryNames(root);
  for (const [name, places] of [...uses].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (places.size < 2 || glossary.has(name)) continue;
    const listed = [...places].map(([where, numbers]) => `${where} (${range(numbers)})`).join(", ");
    problems.push(
      `steps/: "${name}" is ${listed}; give each meaning its own name, or list the name in CONTRIBUTING.md's glossary`,
    );
  }
  checkKeptExports(steps, exportsOf, problems);
}

/** A file at the same path in the next step keeps at least one of the names it exported. */
function checkKeptExports(steps, exportsOf, problems) {
  steps.forEach((step, i) => {
    for (const [rel, names] of i > 0 ? exportsOf[i] : []) {
      const before = exportsOf[i - 1].get(rel);
      if (!before || before.size === 0 || names.size === 0 || [...names].some((name) => before.has(name))) continue;
      problems.push(
        `steps/${step.name}/${rel}: exports ${[...names].join(", ")}, none of what the file exported in ` +
          `steps/${steps[i - 1].name} (${[...before].join(", ")}); a new meaning wants a new file name`,
      );
    }
  });
}
