// `gen diff N FILE[#region]` on a throwaway repository: the file's hunks as the runner prints them, a region's only,
// and every error a chapter author can meet.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { generate } from "./generate.mjs";

const DOCS = path.join(import.meta.dirname, "docs.mjs");
const RUNNER = path.join(REPO_ROOT, "steps", "run.mjs");

// Step 02 adds `echo` inside region `methods` (in its own nested region) and changes the footer ten lines further on.
const ping = ["function ping() {", '  return "pong";', "}"];
const echo = ["//#region echo", "function echo(text) {", "  return text;", "}", "//#endregion"];
const server = (footer, methods) =>
  [
    "// server",
    "//#region methods",
    ...methods,
    "//#endregion",
    "",
    ...["// one", "// two", "// three", "// four"],
    ...["//#region quiet", "// five", "//#endregion"],
    ...["//#region footer", `export const footer = ${footer};`, "//#endregion"],
    "",
  ].join("\n");

const STEPS = {
  "01-one": {
    "src/server.ts": server(1, ping),
    "src/same.ts": "export const same = true;\n",
    "src/gone.ts": "//#region gone\nexport const gone = 1;\n//#endregion\n",
    "src/list.ts": "//#region list\nconst a = 1;\n//#region c\nconst c = 3;\n//#endregion\n//#endregion\n",
    "src/cut.ts": "const before = 0;\n//#region kept\nconst kept = 1;\n//#endregion\nconst after = 2;\n",
  },
  "02-two": {
    "src/server.ts": server(2, [...ping, ...echo]),
    "src/same.ts": "export const same = true;\n",
    "src/empty.ts": "//#region empty\n//#endregion\n",
    // Removed lines: the last one inside a region (with its own region's markers), and the ones just outside another.
    "src/list.ts": "//#region list\nconst a = 1;\n//#endregion\n",
    "src/cut.ts": "//#region kept\nconst kept = 1;\n//#endregion\n",
  },
  // Only region markers change: `ping` gets a region of its own.
  "03-three": {
    "src/server.ts": server(2, ["//#region ping", ...ping, "//#endregion", ...echo]),
  },
};

let root;
const roots = [];

function makeRoot(chapter = "") {
  const dir = mkdtempSync(path.join(os.tmpdir(), "diff-marker-test-"));
  roots.push(dir);
  for (const [folder, files] of Object.entries(STEPS)) {
    for (const [rel, text] of Object.entries(files)) write(dir, `steps/${folder}/${rel}`, text);
  }
  write(dir, "docs/01-x.md", chapter);
  return dir;
}

function write(dir, rel, text) {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
}

const fence = (...lines) => ["```diff", ...lines, "```"].join("\n");
const body = async (args) => (await generate({ kind: "diff", args }, root)).join("\n");
const failure = (args) =>
  generate({ kind: "diff", args }, root).then(
    () => "(no error)",
    (error) => error.message,
  );

beforeAll(() => {
  root = makeRoot();
});
afterAll(() => {
  for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const methodsHunk = [
  "@@ -3,6 +3,9 @@",
  " function ping() {",
  '   return "pong";',
  " }",
  "+function echo(text) {",
  "+  return text;",
  "+}",
  " ",
  " // one",
  " // two",
].join("\n");
const footerHunk = ["@@ -13,2 +18,2 @@", " // five", "-export const footer = 1;", "+export const footer = 2;"];
const header = "--- steps/01-one/src/server.ts\n+++ steps/02-two/src/server.ts";
const unchanged = (region, lines, where) =>
  `no hunk changes region "${region}" (lines ${lines} of ${where}); nothing to show`;

describe("gen diff N FILE", () => {
  it("shows exactly the runner's lines for that file, markers included", async () => {
    const shown = await body("2 src/server.ts");
    expect(shown).toMatch(/^```diff\n--- steps\/01-one\/src\/server\.ts\n\+\+\+ steps\/02-two\/src\/server\.ts\n@@ /);
    expect(shown).toContain("+//#region echo\n");
    expect(shown).toContain("-export const footer = 1;\n+export const footer = 2;\n");
    const env = { ...process.env, LEARN_MCP_STEPS_DIR: path.join(root, "steps"), NO_COLOR: "1" };
    delete env.FORCE_COLOR;
    const runner = spawnSync(process.execPath, [RUNNER, "2", "--diff"], { cwd: REPO_ROOT, env, encoding: "utf8" });
    expect(runner.status).toBe(0);
    expect(runner.stdout).toContain(shown.replace(/^```diff\n/, "").replace(/```$/, ""));
    expect(runner.stdout).toContain("src/empty.ts");
  });

  it("shows a file of the first step whole, as new", async () => {
    const lines = STEPS["01-one"]["src/same.ts"].trimEnd().split("\n");
    const expected = ["--- (new file)", "+++ steps/01-one/src/same.ts", `@@ -0,0 +1,${lines.length} @@`];
    expect(await body("1 src/same.ts")).toBe(fence(...expected, ...lines.map((line) => `+${line}`)));
  });

  it("shows a removed file as the runner's one line", async () => {
    expect(await body("2 src/gone.ts")).toBe(fence("removed src/gone.ts (3 lines)"));
  });
});

describe("gen diff N FILE#region", () => {
  it("keeps only the hunk that changes the region, without its marker lines", async () => {
    expect(await body("2 src/server.ts#methods")).toBe(fence(header, methodsHunk));
  });

  it("finds a nested region, and a hunk outside a region is left out", async () => {
    expect(await body("2 src/server.ts#echo")).toBe(fence(header, methodsHunk));
    expect(await body("2 src/server.ts#footer")).toBe(fence(header, ...footerHunk));
  });

  it("counts a removed line by where it stood: inside, up to the closing marker, but not just outside", async () => {
    const list = ["--- steps/01-one/src/list.ts", "+++ steps/02-two/src/list.ts", "@@ -2,2 +2,1 @@"];
    expect(await body("2 src/list.ts#list")).toBe(fence(...list, " const a = 1;", "-const c = 3;"));
    expect(await failure("2 src/cut.ts#kept")).toBe(unchanged("kept", "1-3", "steps/02-two/src/cut.ts"));
  });
});

describe("gen diff N FILE errors", () => {
  it.each([
    ["9 src/server.ts", "unknown step 9; the steps are 01, 02, 03"],
    ["x src/server.ts", 'expected a step number, got "x"'],
    ["2 src/server.ts extra", 'expected "N FILE" or "N FILE#region", got "2 src/server.ts extra"'],
    ["2 src/nope.ts", "src/nope.ts is not a file of steps/02-two or steps/01-one"],
    ["1 src/empty.ts", "src/empty.ts is not a file of steps/01-one"],
    ["2 src/same.ts", "steps/02-two/src/same.ts is identical to steps/01-one's; nothing to show"],
    ["2 src/server.ts#nope", 'region "nope" not found in steps/02-two/src/server.ts'],
    ["2 src/gone.ts#gone", 'steps/02-two/src/gone.ts is removed in this step, so it has no region "gone"'],
  ])("%s fails with a message naming the problem", async (args, message) => {
    expect(await failure(args)).toBe(message);
  });

  it("fails a region that only context or only region markers reach", async () => {
    expect(await failure("2 src/server.ts#quiet")).toBe(unchanged("quiet", "17-19", "steps/02-two/src/server.ts"));
    expect(await failure("3 src/server.ts#ping")).toBe(unchanged("ping", "3-7", "steps/03-three/src/server.ts"));
    expect(await failure("3 src/server.ts#methods")).toBe(unchanged("methods", "2-13", "steps/03-three/src/server.ts"));
    expect(await failure("2 src/empty.ts#empty")).toBe(unchanged("empty", "1-2", "steps/02-two/src/empty.ts"));
  });
});

// These start docs.mjs several times per test; on a busy two-core machine that outlasts vitest's default 5 s.
describe("gen diff N FILE#region through docs.mjs --root", { timeout: 30_000 }, () => {
  const docs = (dir, mode) => spawnSync(process.execPath, [DOCS, mode, "--root", dir], { encoding: "utf8" });

  it("syncs the block, ignores changes outside the region, and goes stale on one inside", () => {
    const dir = makeRoot("<!-- gen diff 2 src/server.ts#methods -->\n<!-- /gen -->\n");
    expect(docs(dir, "sync").status).toBe(0);
    const written = readFileSync(path.join(dir, "docs/01-x.md"), "utf8");
    expect(written).toBe(`<!-- gen diff 2 src/server.ts#methods -->\n${fence(header, methodsHunk)}\n<!-- /gen -->\n`);
    write(dir, "steps/02-two/src/server.ts", server(3, [...ping, ...echo]));
    expect(docs(dir, "check").status).toBe(0);
    write(dir, "steps/02-two/src/server.ts", server(3, [...ping, ...echo]).replace("text;", "text.trim();"));
    const stale = docs(dir, "check");
    expect(stale.status).toBe(1);
    expect(stale.stdout).toContain("+  return text.trim();");
  });

  it("fails the check with the chapter's line and the error", () => {
    const dir = makeRoot("# X\n<!-- gen diff 2 src/same.ts -->\n<!-- /gen -->\n");
    const { status, stdout } = docs(dir, "check");
    expect(status).toBe(1);
    const error = "steps/02-two/src/same.ts is identical to steps/01-one's; nothing to show";
    expect(stdout).toContain(`error: docs/01-x.md:2: gen diff 2 src/same.ts: ${error}`);
  });
});
