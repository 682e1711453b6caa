// The exercise form of one declaration, as blankEdits writes it: where the throwing block goes, and what it keeps.
import { describe, expect, it } from "vitest";
import { declarationsOf, parse } from "./blanks.mjs";
import { applyEdits, blankEdits } from "./texts.mjs";

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
