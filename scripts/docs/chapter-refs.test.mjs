// The chapter-reference rule of docs:check: planted bare mentions and broken chapter links fail, links pass.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chapterRefProblems } from "./chapter-refs.mjs";

const CHAPTERS = new Set(["01-echo.md", "02-rpc.md", "appendix-x.md"]);
const problems = (text, doc = "docs/02-rpc.md") => chapterRefProblems(doc, text, CHAPTERS);

describe("chapterRefProblems", () => {
  it("fails a bare mention of a chapter or a step, in every spelling", () => {
    for (const text of ["As in chapter 01.", "Step 01 is first.", "Chapter 1's server.", "see STEPS 01"]) {
      expect(problems(text), text).toEqual([expect.stringMatching(/docs\/02-rpc.md:1: ".*" names 1 by number/)]);
    }
  });

  it("fails each number of a list or a range", () => {
    expect(problems("chapters 01 to 02 and step 01, 02").length).toBe(4);
  });

  it("passes a mention inside a link to that chapter's file, with or without the word", () => {
    expect(problems("As in [chapter 01](01-echo.md)'s server, chapters [01](01-echo.md) to [02](02-rpc.md).")).toEqual(
      [],
    );
    expect(problems("See [step 01](../docs/01-echo.md#run-it).")).toEqual([]);
  });

  it("fails a mention inside a link to another chapter", () => {
    expect(problems("As in [chapter 02](01-echo.md).")).toEqual([
      expect.stringContaining('"chapter 02" names 2 by number; its link goes to 01-echo.md'),
    ]);
  });

  it("fails a link to a chapter file that does not exist", () => {
    expect(problems("the [manager](18-manager.md)")).toEqual([
      "docs/02-rpc.md:1: link to 18-manager.md, which is no chapter",
    ]);
  });

  it("leaves code, inline code and generated blocks alone", () => {
    const text = [
      "Run `node steps/run.mjs 1 --diff` and `step 01`.",
      "```text",
      "chapter 01",
      "```",
      "<!-- gen stat 1 -->",
      "step 01 and [x](09-gone.md)",
      "<!-- /gen -->",
      "the end of chapter 02",
    ].join("\n");
    expect(problems(text)).toEqual([expect.stringMatching(/^docs\/02-rpc.md:8: "chapter 02"/)]);
  });
});

const roots = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("docs.mjs check", { timeout: 30_000 }, () => {
  it("fails a chapter with a bare mention, and passes it once the mention is a link", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "chapter-refs-"));
    roots.push(root);
    mkdirSync(path.join(root, "docs"));
    writeFileSync(path.join(root, "docs/01-echo.md"), "# 01\n\nNext: chapter 02.\n");
    writeFileSync(path.join(root, "docs/02-rpc.md"), "# 02\n\nBack to [chapter 01](01-echo.md).\n");
    const check = () =>
      spawnSync(process.execPath, [path.join(import.meta.dirname, "docs.mjs"), "check", "--root", root]);
    const failed = check();
    expect(failed.stdout.toString()).toContain('error: docs/01-echo.md:3: "chapter 02" names 2 by number');
    expect(failed.status).toBe(1);
    writeFileSync(path.join(root, "docs/01-echo.md"), "# 01\n\nNext: [chapter 02](02-rpc.md).\n");
    expect(check().status).toBe(0);
  });
});
