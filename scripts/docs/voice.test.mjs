// The voice rule on chapters written for the test: each planted word is found on its line, in prose and in the
// comments of a gen code block, and left alone in code, inline code, commands and other fenced blocks.
import { describe, expect, it } from "vitest";
import { commentOf, voiceProblems } from "./voice.mjs";

const chapter = [
  "# Answer `tools/list`", // 1
  "",
  "Simply run it.", // 3
  "Now let's look, and Let’s see.", // 4
  "It works 🎉, client ↔ server.", // 5
  "Inline `simply()` and `let's` are code.", // 6
  "<!-- gen exec echo simply -->", // 7
  "```text",
  "simply, let's 🎉",
  "```",
  "<!-- /gen -->",
  "<!-- gen code steps/01-a/src/a.ts#x -->", // 12
  "```ts",
  'const url = "http://x/simply"; // fetched once, simply', // 14
  "/**", // 15
  " * Let's not.", // 16
  " */",
  "const simply = 1; /* ✅ done */", // 18
  "```",
  "<!-- /gen -->",
  "````md",
  "Simply quoted.",
  "```",
  "still quoted, simply",
  "````",
  "The word simplyfied is not the word.", // 26
  "",
].join("\n");

describe("voiceProblems", () => {
  it("names the file, the line and the word, for prose and for a gen code comment", () => {
    const where = "a comment in gen code steps/01-a/src/a.ts#x";
    expect(voiceProblems("docs/01-a.md", chapter)).toEqual([
      `docs/01-a.md:14: ${where}: "simply"`,
      `docs/01-a.md:16: ${where}: "Let's"`,
      `docs/01-a.md:18: ${where}: an emoji`,
      'docs/01-a.md:3: prose: "simply"',
      `docs/01-a.md:4: prose: "Let's"`,
      "docs/01-a.md:5: prose: an emoji",
    ]);
  });

  it("finds nothing in a chapter that keeps the rule", () => {
    expect(voiceProblems("docs/01-a.md", "# Run it\n\nRun it: `simply`.\n")).toEqual([]);
  });
});

describe("commentOf", () => {
  it("reads a line comment outside strings, and a block comment across lines", () => {
    expect(commentOf('fetch("http://x"); // why', false)).toEqual({ text: " why", inBlock: false });
    expect(commentOf("const a = '//'; ", false)).toEqual({ text: "", inBlock: false });
    expect(commentOf("x(); /* starts", false)).toEqual({ text: " starts", inBlock: true });
    expect(commentOf(" ends */ y();", true)).toEqual({ text: " ends ", inBlock: false });
  });
});
