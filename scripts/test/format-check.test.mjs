// The format check on a small git repository under the temporary folder: every copy of a badly formatted file is
// named, a file Prettier cannot parse is an error, ignored files are left out and untracked ones are not.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { codeFiles, formatCheck } from "./format-check.mjs";

const root = mkdtempSync(path.join(os.tmpdir(), "format-check-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const files = {
  ".gitignore": "ignored/\n",
  "good.ts": "export const answer = 42;\n",
  "good-copy.ts": "export const answer = 42;\n",
  "copy-a.ts": "export const  answer=42\n",
  "copy-b.ts": "export const  answer=42\n",
  "same-text.mjs": "export const answer = 42;\n",
  "broken.js": "export const = ;\n",
  "ignored/bad.ts": "export const  answer=42\n",
  "notes.md": "not  code\n",
};
spawnSync("git", ["init", "-q", root]);
mkdirSync(path.join(root, "ignored"));
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);

/** What formatCheck prints and returns for `names`. */
async function check(names) {
  const lines = [];
  const status = await formatCheck(names, root, (line) => lines.push(line));
  return { status, lines };
}

it("lists the code files git would track, untracked ones included, ignored ones and other files not", () => {
  expect(codeFiles(root)).toEqual(["broken.js", "copy-a.ts", "copy-b.ts", "good-copy.ts", "good.ts", "same-text.mjs"]);
});

it("passes formatted files, checking a copy once and the same text under another extension on its own", async () => {
  const { status, lines } = await check(["good.ts", "good-copy.ts", "same-text.mjs"]);
  expect(status).toBe(0);
  expect(lines.at(-1)).toBe("All 3 matched files use Prettier code style (2 distinct).");
});

it("names every copy of a file Prettier would change, and exits 1", async () => {
  const { status, lines } = await check(["good.ts", "copy-a.ts", "copy-b.ts"]);
  expect(status).toBe(1);
  expect(lines.filter((line) => line.startsWith("[warn] copy"))).toEqual(["[warn] copy-a.ts", "[warn] copy-b.ts"]);
});

it("reports a file it cannot parse as an error naming it, and exits 2", async () => {
  const { status, lines } = await check(["good.ts", "broken.js"]);
  expect(status).toBe(2);
  expect(lines).toContainEqual(expect.stringMatching(/^\[error\] broken\.js: /));
});

it("skips a file a .gitignore names even when it is named on the command line", async () => {
  expect((await check(["ignored/bad.ts"])).status).toBe(0);
});
