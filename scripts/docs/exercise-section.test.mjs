// The "Build it yourself" section and the check on blanks, on a throwaway repository of three small steps.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chapterBlankProblems, exerciseSection, unexplainedBlanks } from "./exercise-section.mjs";
import { findBlanks } from "../../steps/runner/exercise/blanks.mjs";
import { listStepFiles, listSteps } from "../../steps/runner/shared/repo.mjs";

const DOCS = path.join(import.meta.dirname, "docs.mjs");
const roots = [];
const TSCONFIG = JSON.stringify({
  compilerOptions: {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ["es2022"],
    target: "es2022",
    module: "preserve",
  },
  include: ["src"],
});
const SUM = "export function sum(numbers: number[]): number {\n  return numbers.reduce((a, b) => a + b, 0);\n}\n";
const MEAN =
  "//#region mean\nexport function mean(numbers: number[]): number {\n  return sum(numbers) / numbers.length;\n}\n//#endregion\n";

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

// 02 adds mean (in a region) and half (neither documented nor in a region); 03 changes half and adds double, both
// documented. `part3` is step 03's part.
function makeRoot(part3 = "by hand over stdio") {
  const root = mkdtempSync(path.join(os.tmpdir(), "exercise-section-test-"));
  roots.push(root);
  const sources = {
    "01-echo": SUM,
    "02-sum": `${SUM}\n${MEAN}\nexport const half = (n: number) => n / 2;\n`,
    "03-more": `${SUM}\n${MEAN}\n/** Half of \`n\`. */\nexport const half = (n: number) => n * 0.5;\n\n/** Twice \`n\`. */\nexport const double = (n: number) => n * 2;\n`,
  };
  for (const [folder, source] of Object.entries(sources)) {
    const part = folder === "03-more" ? part3 : "by hand over stdio";
    write(root, `steps/${folder}/lesson.json`, JSON.stringify({ title: folder, part, changes: [] }));
    write(root, `steps/${folder}/tsconfig.json`, TSCONFIG);
    write(root, `steps/${folder}/src/sum.ts`, source);
    write(root, `steps/${folder}/src/main.ts`, `export const step = "${folder}";\n`);
  }
  return root;
}

const stepOf = (root, id) => listSteps(path.join(root, "steps")).find((step) => step.id === id);
const blanksOf = (root, id, prev) =>
  findBlanks(stepOf(root, id).dir, stepOf(root, prev).dir, listStepFiles(stepOf(root, id).dir));
const chapter = (id, ...markers) =>
  [`# ${id}`, ...markers.flatMap((marker) => [`<!-- gen ${marker} -->`, "<!-- /gen -->"]), ""].join("\n");

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("exerciseSection", { timeout: 60_000 }, () => {
  it("gives the commands and every blank with its doc line, and no --from-mine after step 01", () => {
    const lines = exerciseSection("2", makeRoot());
    expect(lines.join("\n")).toBe(
      [
        "```sh",
        "node steps/run.mjs 2 --exercise  # exercises/02-sum/: step 02, its lesson taken out",
        "node steps/run.mjs 2 --check     # step 02's tests on your folder, then your demo",
        "node steps/run.mjs 2 --hint      # the first failing blank, and where the chapter shows it",
        "node steps/run.mjs 2 --solution  # your folder against step 02, as a diff",
        "```",
        "",
        "The exercise has 2 blanks:",
        "",
        "- `mean` in `src/sum.ts`",
        "- `half` in `src/sum.ts`",
      ].join("\n"),
    );
  });

  it("offers --from-mine within a part, and marks a changed blank that starts as the step before has it", () => {
    const lines = exerciseSection("3", makeRoot());
    expect(lines).toContain("node steps/run.mjs 3 --exercise --from-mine  # the same, from your own exercises/02-sum/");
    expect(lines).toContain("- `half` in `src/sum.ts`, changed (it starts as step 02 has it): Half of `n`.");
    expect(lines).toContain("- `double` in `src/sum.ts`: Twice `n`.");
    expect(lines.join("\n")).not.toContain("first of the part");
  });

  it("says that the first step of a part starts from the reference", () => {
    const lines = exerciseSection("3", makeRoot("with the SDK"));
    expect(lines.join("\n")).not.toContain("--from-mine");
    expect(lines).toContain(
      'Step 03 is the first of the part "with the SDK": its exercise starts from the reference step 02, not from your own.',
    );
  });

  it("refuses step 01 and a step that does not exist", () => {
    const root = makeRoot();
    expect(() => exerciseSection("1", root)).toThrow("step 01 is the first step: it has no exercise");
    expect(() => exerciseSection("9", root)).toThrow("unknown step 9");
  });
});

describe("unexplainedBlanks and chapterBlankProblems", { timeout: 60_000 }, () => {
  it("accepts a blank its chapter shows in a region, or one with a doc comment that the section lists", () => {
    const root = makeRoot();
    const shown = chapter("02", "code steps/02-sum/src/sum.ts#mean", "exercise 02");
    expect(unexplainedBlanks(stepOf(root, "02"), blanksOf(root, "02", "01"), shown).map((blank) => blank.id)).toEqual([
      "src/sum.ts#half",
    ]);
    const whole = chapter("02", "code steps/02-sum/src/sum.ts", "exercise 02");
    expect(unexplainedBlanks(stepOf(root, "02"), blanksOf(root, "02", "01"), whole)).toEqual([]);
    // Another step's listing of the same file shows none of this step's code.
    const other = chapter("02", "code steps/03-more/src/sum.ts", "exercise 02");
    expect(unexplainedBlanks(stepOf(root, "02"), blanksOf(root, "02", "01"), other)).toHaveLength(2);
    expect(unexplainedBlanks(stepOf(root, "03"), blanksOf(root, "03", "02"), chapter("03", "exercise 03"))).toEqual([]);
    expect(unexplainedBlanks(stepOf(root, "03"), blanksOf(root, "03", "02"), chapter("03"))).toHaveLength(2);
  });

  it("names the step and the blank, and a chapter without its section", () => {
    const root = makeRoot();
    expect(
      chapterBlankProblems(root, "docs/02-sum.md", chapter("02", "code steps/02-sum/src/sum.ts#mean", "exercise 02")),
    ).toEqual([
      "docs/02-sum.md: step 02's blank src/sum.ts#half has no doc comment and lies in no region the chapter shows; give it a one-line doc comment",
    ]);
    expect(chapterBlankProblems(root, "docs/03-more.md", chapter("03"))).toEqual([
      "docs/03-more.md: no <!-- gen exercise 03 --> block lists the blanks of step 03's exercise",
    ]);
    expect(chapterBlankProblems(root, "docs/01-echo.md", chapter("01"))).toEqual([]);
    expect(chapterBlankProblems(root, "docs/appendix-x.md", chapter("x"))).toEqual([]);
  });

  it("runs inside docs.mjs: sync writes the section, and check fails on a blank the chapter leaves unexplained", () => {
    const root = makeRoot();
    write(root, "docs/03-more.md", chapter("03", "exercise 3"));
    write(root, "docs/02-sum.md", chapter("02", "exercise 2"));
    const run = (mode) => spawnSync(process.execPath, [DOCS, mode, "--root", root], { encoding: "utf8" });
    const sync = run("sync");
    expect(readFileSync(path.join(root, "docs/03-more.md"), "utf8")).toContain(
      "- `double` in `src/sum.ts`: Twice `n`.\n<!-- /gen -->",
    );
    expect(sync.stdout).toContain("error: docs/02-sum.md: step 02's blank src/sum.ts#mean has no doc comment");
    expect(sync.stdout).toContain("error: docs/02-sum.md: step 02's blank src/sum.ts#half has no doc comment");
    expect(sync.stdout).not.toContain("docs/03-more.md: step 03's blank");
    const check = run("check");
    expect(check.stdout).toContain("2 accepted unchanged");
    expect(check.status).toBe(1);
  });
});
