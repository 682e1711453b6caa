// `gen part N` and `gen map N` on a throwaway repository: the paragraph of the first step of a part, the runner's
// --map as a block, their errors, and docs.mjs finding a stale one; `gen diff N FILE` of a restored file is one line.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "./generate.mjs";

const DOCS = path.join(import.meta.dirname, "docs.mjs");
const lesson = (part, extra = {}) => JSON.stringify({ title: `in ${part}`, part, changes: [], ...extra });
const bar = "// The bar, drawn in the first step.\nexport const bar = 1;\n";

// 03 opens the part "two": it drops gone.ts, brings bar.ts back from 01 and names the first step's demo by its role.
const STEPS = {
  "01-one": {
    "lesson.json": lesson("one"),
    "src/main.ts": "// One.\n",
    "src/bar.ts": bar,
    "src/gone.ts": "// Gone.\n",
  },
  "02-two": { "lesson.json": lesson("one"), "src/main.ts": "// Two.\n", "src/gone.ts": "// Gone.\n" },
  "03-three": {
    "lesson.json": lesson("two", { given: ["src/bar.ts"] }),
    "src/main.ts": '// Three: starts the first demo.\nconst role = "first demo";\n',
    "src/bar.ts": bar,
  },
};

let root;
function write(dir, rel, text) {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "part-marker-test-"));
  for (const [folder, files] of Object.entries(STEPS))
    for (const [rel, text] of Object.entries(files)) write(root, `steps/${folder}/${rel}`, text);
  write(root, "steps/roles.json", '{ "first demo": "01-one/src/main.ts", "unused": "02-two/src/main.ts" }\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const failure = (kind, args) =>
  generate({ kind, args }, root).then(
    () => "(no error)",
    (error) => error.message,
  );

describe("gen part N", () => {
  it("says what the step starts from, what it keeps of it, and the earlier programs it starts by role", async () => {
    expect(await generate({ kind: "part", args: "3" }, root)).toEqual([
      'Step 03 opens the part "two". It starts from [step 02](02-two.md), the last of "one": it keeps 0 of that ' +
        "step's 2 files as they are, changes 1 and removes 1. It starts this earlier program, found by its role in " +
        "`steps/roles.json`:",
      "",
      '- "first demo": `steps/01-one/src/main.ts`, from [step 01](01-one.md)',
    ]);
  });

  it("refuses a step that does not open a part, and the first step", async () => {
    expect(await failure("part", "2")).toBe(
      "step 02 does not open a part: it is in the part of the step before it, or first",
    );
    expect(await failure("part", "1")).toContain("step 01 does not open a part");
    expect(await failure("part", "9")).toBe("unknown step 9");
  });
});

describe("gen map N", () => {
  it("is the runner's --map, fenced", async () => {
    expect(await generate({ kind: "map", args: "3" }, root)).toEqual([
      "```text",
      "restored from step 01, given  src/bar.ts   The bar, drawn in the first step.",
      "removed                       src/gone.ts  Gone.",
      "changed                       src/main.ts  Three: starts the first demo.",
      "```",
    ]);
  });

  it("fails a stale map in docs:check and rewrites it in docs:sync", () => {
    write(root, "README.md", "# Fixture\n\n<!-- gen map 3 -->\n```text\nold\n```\n<!-- /gen -->\n");
    const docs = (mode) => spawnSync(process.execPath, [DOCS, mode, "--root", root], { encoding: "utf8" });
    const stale = docs("check");
    expect(stale.stdout).toContain("stale: README.md:3 <!-- gen map 3 -->");
    expect(stale.status).toBe(1);
    expect(docs("sync").status).toBe(0);
    expect(readFileSync(path.join(root, "README.md"), "utf8")).toContain(
      "removed                       src/gone.ts  Gone.",
    );
    expect(docs("check").status).toBe(0);
  });
});

describe("gen diff N FILE of a restored file", () => {
  it("is the runner's one line, not the file's whole text", async () => {
    expect(await generate({ kind: "diff", args: "3 src/bar.ts" }, root)).toEqual([
      "```diff",
      "restored src/bar.ts from step 01 (2 lines)",
      "```",
    ]);
  });
});
