// The exercise form of one declaration, as blankEdits writes it, and the type-checker a plan checks exercises with.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { declarationsOf, parse } from "./blanks.mjs";
import { applyEdits, blankEdits, checkerOver, typeErrors } from "./texts.mjs";
import { listSteps, readStepFile, REPO_ROOT } from "../shared/repo.mjs";

/** `text` with the declaration `name` blanked to a throw, as the exercise of step 02 shows it. */
function blanked(text, name) {
  const file = parse("src/tools.ts", text);
  const found = declarationsOf(file).find((declaration) => declaration.name === name);
  const blank = { name, doc: "what it is for" };
  return applyEdits(text, blankEdits(text, file, found, { stepId: "02", blank }));
}

const THROW = 'throw new Error("double: not written yet (step 02) — what it is for");';

describe("blankEdits", () => {
  it("puts the block of an arrow whose expression body starts on the next line right after the arrow", () => {
    const text = "export const double = (value: number): number =>\n  value * 2 + value * 0 + value * 0 + value * 0;\n";
    expect(blanked(text, "double")).toBe(`export const double = (value: number): number => {\n  ${THROW}\n};\n`);
  });

  it("replaces the block of a function in place", () => {
    const text = "export function double(value: number): number {\n  return value * 2;\n}\n";
    expect(blanked(text, "double")).toBe(`export function double(value: number): number {\n  ${THROW}\n}\n`);
  });
});

describe("checkerOver", () => {
  const steps = listSteps(path.join(REPO_ROOT, "steps"));
  const [first, second] = steps.slice(1, 3).map((step) => step.dir);
  const rel = "src/main.ts";

  it("parses a declaration once for every program over every step, and a changed text anew", () => {
    const before = checkerOver(first);
    const declaration = before.program.getSourceFiles().find((file) => file.fileName.includes("/@types/node/"));
    expect(checkerOver(second).program.getSourceFile(declaration.fileName)).toBe(declaration);
    const broken = checkerOver(first, new Map([[rel, `${readStepFile(first, rel)}\nconst wrong: number = "six";\n`]]));
    expect(broken.file(rel)).not.toBe(before.file(rel));
    expect(typeErrors(broken, first).map((error) => [error.rel, error.message])).toEqual([
      [rel, "Type 'string' is not assignable to type 'number'."],
    ]);
    const after = checkerOver(first);
    expect(after.file(rel).text).toBe(readStepFile(first, rel));
    expect(typeErrors(after, first)).toEqual([]);
  });
});
