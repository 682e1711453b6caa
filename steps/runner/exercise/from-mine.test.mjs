// Tests for --from-mine on real steps: a learner's step 04, written their way, carried into step 05's exercise.
// Their step 04 is the reference filled in, then edited as a learner would: a renamed local, helpers of their own.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { declarationsOf, parse } from "./blanks.mjs";
import { planExercise, writeExercise } from "./exercise.mjs";
import { fromMine, partStart, writeFromMine } from "./from-mine.mjs";
import { checkerOver, throwLine, typeErrors } from "./texts.mjs";
import { listSteps, readStepFile } from "../shared/repo.mjs";

const steps = listSteps();
const [before, step] = ["04", "05"].map((id) => steps.find((candidate) => candidate.id === id));
const temp = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-from-mine-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const HELPERS = `/** The sum of the numbers, refused when it overflows: JSON has no Infinity. */
function finiteTotal(numbers: number[]): number {
  const total = numbers.reduce((a, b) => a + b, 0);
  if (!Number.isFinite(total)) throw invalidParams("the sum is not a finite number");
  return total;
}

function answerLine(line: string) {
  return handleLine(line, methods);
}`;
const NUMBERS = `export const isNumberList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((n) => typeof n === "number");
`;
const SUM_BODY = `  const { numbers } = checkParams(params, ["numbers"], usage);
  if (!isNumberList(numbers)) throw invalidParams(usage);
  return finiteTotal(numbers);
}`;

const CLASH = 'const session = "theirs";';
const LAST_IMPORT = 'import { openSandbox, SandboxError, writeInside } from "./sandbox.ts";';

/** The learner's way of writing a server.ts: sum split into helpers, createFile's `usage` called `expected`. */
function theirWay(text, lastImport, helpers = HELPERS) {
  const sum = /( {2}const \{ numbers \} = checkParams[^]*?\n\})/;
  const createFile = /(async function createFile[^]*?\n\})/;
  return text
    .replace(lastImport, `${lastImport}\nimport { isNumberList } from "./numbers.ts";`)
    .replace(sum, () => SUM_BODY)
    .replace("/** sleep:", `${helpers}\n\n/** sleep:`)
    .replace(createFile, (body) => body.replaceAll("usage", "expected"));
}

let plan, texts, notes, server, errors, fromReference;
beforeAll(() => {
  // Their step 04: the reference (which filling every blank gives back byte for byte), written their way.
  const mine = path.join(temp, before.folder);
  // Their `session` holds a name step 05 gives to something of its own.
  const server04 = theirWay(readStepFile(before.dir, "src/server.ts"), LAST_IMPORT).replace(
    /^let sandbox = "";$/m,
    `$&\n${CLASH}`,
  );
  writeExercise({ step: before }, mine, new Map([["src/server.ts", server04]]));
  writeFileSync(path.join(mine, "src/numbers.ts"), NUMBERS);
  plan = planExercise(step, before);
  ({ texts, notes } = fromMine(plan, mine));
  server = texts.get("src/server.ts");
  errors = typeErrors(checkerOver(step.dir, texts), step.dir);
  fromReference = fromMine(plan, before.dir).texts;
  // About 7 s of type-checking on a quiet machine; the bound is for a busy one.
}, 120_000);

describe("fromMine", () => {
  test("what step 05 keeps is theirs: their body, their helpers, their own file and the import it needs", () => {
    expect(server).toContain(SUM_BODY);
    expect(server).toContain(HELPERS.split("\n\nfunction answerLine")[0]);
    expect(server).toContain("throw invalidParams(expected)");
    expect(server).toContain(`${LAST_IMPORT}\nimport { isNumberList } from "./numbers.ts";`);
    expect(texts.get("src/numbers.ts")).toBe(NUMBERS);
  });

  test("a helper of theirs that no longer type-checks stays, as a comment with a note", () => {
    const note = `Your answerLine from step 04 no longer type-checks here; kept as a comment.`;
    expect(server).toContain(
      `// ${note}\n// function answerLine(line: string) {\n//   return handleLine(line, methods);\n// }`,
    );
    expect(notes).toContain(`src/server.ts: ${note}`);
  });

  test("a helper of theirs named as something step 05 adds gives way to it, with a note", () => {
    expect(server).not.toContain(CLASH);
    expect(notes).toContain(
      "src/server.ts: your session has the name of one step 05 adds, so step 05's takes its place.",
    );
  });

  test("what step 05 adds or changes is blank, and the whole type-checks", () => {
    const added = plan.blanks.filter((blank) => blank.change === "added");
    expect(added.length).toBeGreaterThan(0);
    for (const blank of added) expect(texts.get(blank.file)).toContain(throwLine(step.id, blank));
    const serve = plan.blanks.find((blank) => blank.id === "src/server.ts#serve");
    expect(server).toContain(`// Step 05 changes serve; your version from step 04 no longer fits, so it starts blank.`);
    expect(server).toContain(throwLine(step.id, serve));
    expect(errors).toEqual([]);
  });

  test("filling step 05's blanks from the reference gives step 05 written their way", () => {
    const commented = `// Your answerLine from step 04 no longer type-checks here; kept as a comment.\n${HELPERS.split("\n\n")[1].replace(/^/gm, "// ")}`;
    const expected = theirWay(
      readStepFile(step.dir, "src/server.ts"),
      LAST_IMPORT,
      `${HELPERS.split("\n\nfunction answerLine")[0]}\n\n${commented}`,
    );
    expect(filled("src/server.ts")).toBe(expected);
    for (const rel of ["src/jsonrpc.ts", "src/lifecycle.ts"]) expect(filled(rel)).toBe(readStepFile(step.dir, rel));
  });

  test("from the reference's own step 04, the exercise is the plan's, but for whose version a note names", () => {
    const planned = plan.texts();
    const same = (text) => text?.replaceAll(/your version from step 04/g, "step 04's version");
    expect(new Set(fromReference.keys())).toEqual(new Set(planned.keys()));
    for (const [rel, text] of planned) expect(same(fromReference.get(rel))).toBe(text);
  });

  test("writeFromMine writes their own files beside step 05's", () => {
    const dest = path.join(temp, step.folder);
    writeFromMine(plan, dest, texts);
    expect(readStepFile(dest, "src/numbers.ts")).toBe(NUMBERS);
    expect(readStepFile(dest, "src/server.ts")).toBe(server);
    expect(readStepFile(dest, "src/server.test.ts")).toBe(readStepFile(step.dir, "src/server.test.ts"));
  });
});

describe("partStart", () => {
  const made = (parts) => parts.map((part, i) => ({ number: i + 1, lesson: part === undefined ? {} : { part } }));
  test("a step whose part differs from the one before opens it; a missing part marks no boundary", () => {
    const four = made(["by hand", "by hand", "with the SDK", undefined, "the host"]);
    expect(four.map((one) => partStart(four, one))).toEqual([true, false, true, false, false]);
  });
});

/** A text of the exercise with every blank filled from the reference: each blank's declaration as step 05 has it. */
function filled(rel) {
  const text = texts.get(rel) ?? readStepFile(step.dir, rel);
  const [now, reference] = [parse(rel, text), parse(rel, readStepFile(step.dir, rel))];
  const edits = plan.blanks
    .filter((blank) => blank.file === rel)
    .map((blank) => {
      const [at, from] = [now, reference].map(
        (file) => declarationsOf(file).find((found) => found.name === blank.name).outer,
      );
      return { start: at.getFullStart(), end: at.end, text: reference.text.slice(from.getFullStart(), from.end) };
    });
  return edits
    .sort((a, b) => b.start - a.start)
    .reduce((result, edit) => result.slice(0, edit.start) + edit.text + result.slice(edit.end), text);
}
