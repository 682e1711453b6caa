// A pair of fixture steps for exercise.test.mjs, laid out as the repository is (steps/, docs/ with a chapter and the
// record of check:exercises), and the texts a learner writes into the exercise.
import path from "node:path";

const packageJson = (name) => `{\n  "name": "@fixture/${name}",\n  "version": "1.0.0",\n  "type": "module"\n}\n`;

const base = `/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}
`;

// total is shown second by the chapter, times first; later is not shown and its tests are not recorded.
export const REFERENCE = `${base}
//#region total
/** Adds every number of a list. */
export function total(numbers: number[]): number {
  return numbers.reduce((sum, n) => add(sum, n), 0);
}
//#endregion

//#region times
/** Multiplies two numbers. */
export function times(a: number, b: number): number {
  return a * b;
}
//#endregion

/** Resolves with the number it is given. */
export async function later(n: number): Promise<number> {
  return n;
}
`;

export const TESTS = `import { expect, test } from "vitest";
import { add, later, times, total } from "./sum.ts";

test("add adds", () => expect(add(2, 3)).toBe(5));
test("total adds a list", () => expect(total([1, 2, 3])).toBe(6));
test("times multiplies", () => expect(times(2, 3)).toBe(6));
test("later resolves", async () => expect(await later(2)).toBe(2));
`;

const MAIN = `import { times, total } from "./sum.ts";\nconsole.log(\`total \${total([1, 2, 3])}, times \${times(2, 3)}\`);\n`;

const CHAPTER = `# 02 · More

One sentence.

## Multiply

<!-- gen code steps/02-more/src/sum.ts#times -->
\`\`\`ts
# not a heading: inside a fence
\`\`\`
<!-- /gen -->

## Add up a list

<!-- gen code steps/02-more/src/sum.ts#total -->
\`\`\`ts
\`\`\`
<!-- /gen -->

## Run it

<!-- gen run 2 -->
\`\`\`text
total 6, times 6
\`\`\`
<!-- /gen -->
`;

const RECORD = {
  "02-more": {
    inputs: "0".repeat(64),
    node: 20,
    blanks: {
      "src/sum.ts#total": { tests: ["src/sum.test.ts > total adds a list"] },
      "src/sum.ts#times": { tests: ["src/sum.test.ts > times multiplies"] },
    },
    seconds: 1,
  },
};

/** The files of the fixture repository; `repoRoot` is the real one, whose tsconfig.base.json the steps extend. */
export function exerciseFixture(repoRoot, fixtureRoot) {
  const step = (folder, files) => {
    const extendsPath = path.relative(
      path.join(fixtureRoot, "steps", folder),
      path.join(repoRoot, "tsconfig.base.json"),
    );
    return {
      "package.json": packageJson(folder),
      "lesson.json": JSON.stringify({ title: `Fixture ${folder}: a pair`, changes: [] }),
      "tsconfig.json": `{ "extends": ${JSON.stringify(extendsPath)}, "include": ["src"] }\n`,
      ...files,
    };
  };
  return {
    "steps/01-base": step("01-base", {
      "src/sum.ts": base,
      "src/main.ts": 'import { add } from "./sum.ts";\nconsole.log(add(1, 2));\n',
    }),
    "steps/02-more": step("02-more", { "src/sum.ts": REFERENCE, "src/sum.test.ts": TESTS, "src/main.ts": MAIN }),
    steps: { "roles.json": "{}\n" },
    docs: { "02-more.md": CHAPTER, ".exercises.json": `${JSON.stringify(RECORD, null, 2)}\n` },
  };
}
