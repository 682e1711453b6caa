// check-steps.mjs end to end on fixture step trees (--root): one test per kind of error or warning.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkSizes } from "./lesson-rules.mjs";
import { fixChanges } from "./fix-changes.mjs";

const CHECK = path.join(import.meta.dirname, "check-steps.mjs");
const roots = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

const SCRIPTS = { start: "tsx src/main.ts", test: "vitest run", typecheck: "tsc --noEmit -p tsconfig.json" };
const pkg = (name, extra = {}) => JSON.stringify({ name: `@learn-mcp/${name}`, scripts: SCRIPTS, ...extra }, null, 2);
const lesson = (title, changes, extra = {}) =>
  JSON.stringify({ title, part: "by hand over stdio", changes, ...extra }, null, 2);

// Two well-formed steps: 02 changes main.ts and adds tools.ts, which its server imports, and says so.
function makeRoot() {
  const root = mkdtempSync(path.join(os.tmpdir(), "check-steps-test-"));
  roots.push(root);
  for (const [name, changes] of [
    ["01-echo", []],
    ["02-sum", ["src/main.ts", "src/server.ts", "src/tools.ts"]],
  ]) {
    write(root, `steps/${name}/package.json`, pkg(name));
    write(root, `steps/${name}/lesson.json`, lesson(`chapter ${name}`, changes));
    write(root, `steps/${name}/tsconfig.json`, '{ "include": ["src"] }\n');
    write(root, `steps/${name}/src/server.ts`, "export const server = 1;\n");
    write(root, `steps/${name}/src/main.ts`, `console.log("${name}");\n`);
    write(root, `docs/${name}.md`, `# ${name}\n`);
  }
  write(root, "steps/02-sum/src/server.ts", 'import { tools } from "./tools.ts";\nexport const server = tools;\n');
  write(root, "steps/02-sum/src/tools.ts", "export const tools = [];\n");
  write(root, "steps/run.mjs", "// not a step\n");
  write(root, "docs/appendix-glossary.md", "# Glossary\n");
  return root;
}

function check(root, ...flags) {
  const result = spawnSync(process.execPath, [CHECK, "--root", root, ...flags], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("check-steps.mjs", () => {
  it("passes steps whose unlisted files are byte-identical", () => {
    const { status, output } = check(makeRoot());
    expect(output).toContain("check-steps: 2 steps, 0 errors");
    expect(status).toBe(0);
  });

  it("ignores installed node_modules", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/node_modules/x/index.js", "different\n");
    expect(check(root).status).toBe(0);
  });

  it("fails an undeclared change, naming the file", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/lesson.json", lesson("sum", ["src/server.ts", "src/tools.ts"]));
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain(
      "error: steps/02-sum/src/main.ts: differs from steps/01-echo's but is not listed in lesson.json changes",
    );
  });

  it("fails an undeclared removal", () => {
    const root = makeRoot();
    write(root, "steps/01-echo/src/framing.ts", "export {};\n");
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain("error: steps/02-sum/src/framing.ts: was removed since steps/01-echo");
  });

  it("fails a stale declaration", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/src/main.ts", 'console.log("01-echo");\n');
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain(`changes lists "src/main.ts", which is identical to steps/01-echo's`);
  });

  it("compares package.json without its name, and allows only dependencies to change", () => {
    const root = makeRoot();
    write(
      root,
      "steps/02-sum/lesson.json",
      lesson("sum", ["src/main.ts", "src/server.ts", "src/tools.ts", "package.json"]),
    );
    expect(check(root).output).toContain(`changes lists "package.json", which is identical`);
    write(root, "steps/02-sum/package.json", pkg("02-sum", { devDependencies: { zod: "4" } }));
    expect(check(root).status).toBe(0);
    write(root, "steps/02-sum/package.json", pkg("02-sum", { description: "a new title" }));
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain(
      "error: steps/02-sum/package.json: differs from steps/01-echo's in more than its name and dependencies",
    );
  });

  it("fails a lesson.json that is missing, has no title, an unknown key or odd paths", () => {
    const root = makeRoot();
    rmSync(path.join(root, "steps/01-echo/lesson.json"));
    write(root, "steps/02-sum/lesson.json", JSON.stringify({ changes: ["../x", "src/main.ts"], summary: "?" }));
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain("error: steps/01-echo/lesson.json: cannot be read");
    expect(output).toContain('error: steps/02-sum/lesson.json: unknown key "summary"');
    expect(output).toContain("error: steps/02-sum/lesson.json: title is missing");
    expect(output).toContain("error: steps/02-sum/lesson.json: changes must be an array of paths relative to the step");
  });

  it("requires each program to exist and to be named as a literal in main.ts", () => {
    const root = makeRoot();
    write(
      root,
      "steps/02-sum/lesson.json",
      lesson("sum", ["src/cli.ts", "src/main.ts", "src/server.ts", "src/tools.ts"], {
        programs: ["src/cli.ts", "src/gone.ts"],
      }),
    );
    write(root, "steps/02-sum/src/cli.ts", "console.log(1);\n");
    const { output } = check(root);
    expect(output).toContain(
      'error: steps/02-sum/lesson.json: program "src/cli.ts" is not named as the literal "./cli.ts" in src/main.ts',
    );
    expect(output).toContain('error: steps/02-sum/lesson.json: program "src/gone.ts" does not exist');
    write(
      root,
      "steps/02-sum/lesson.json",
      lesson("sum", ["src/cli.ts", "src/main.ts", "src/server.ts", "src/tools.ts"], { programs: ["src/cli.ts"] }),
    );
    write(root, "steps/02-sum/src/main.ts", 'spawn(new URL("./cli.ts", import.meta.url));\n');
    expect(check(root).output).toContain("check-steps: 2 steps, 0 errors");
  });

  it("accepts only known runner flags, each named as a literal in main.ts", () => {
    const root = makeRoot();
    const files = ["src/main.ts", "src/server.ts", "src/tools.ts"];
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { flags: ["--live", "--fast"] }));
    expect(check(root).output).toContain("error: steps/02-sum/lesson.json: flags must be an array of --live");
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { flags: ["--live"] }));
    expect(check(root).output).toContain(
      'error: steps/02-sum/lesson.json: flags: "--live" is not named as a literal in src/main.ts, so the demo ignores it',
    );
    write(root, "steps/02-sum/src/main.ts", 'if (process.argv.includes("--live")) console.log("live");\n');
    expect(check(root).output).toContain("check-steps: 2 steps, 0 errors");
  });

  it("requires each step's part, one of the four, and never one before its predecessor's", () => {
    const root = makeRoot();
    const files = ["src/main.ts", "src/server.ts", "src/tools.ts"];
    write(root, "steps/01-echo/lesson.json", JSON.stringify({ title: "echo", changes: [] }));
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { part: "over the moon" }));
    let { status, output } = check(root);
    expect(status).toBe(1);
    const parts = '"by hand over stdio", "with the SDK", "the host", "over HTTP"';
    expect(output).toContain(`error: steps/01-echo/lesson.json: part must be one of ${parts}`);
    expect(output).toContain(`error: steps/02-sum/lesson.json: part must be one of ${parts}`);
    write(root, "steps/01-echo/lesson.json", lesson("echo", [], { part: "the host" }));
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { part: "with the SDK" }));
    ({ status, output } = check(root));
    expect(status).toBe(1);
    expect(output).toContain(
      `error: steps/02-sum/lesson.json: part "with the SDK" comes before steps/01-echo's "the host"; a part never comes back`,
    );
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { part: "over HTTP" }));
    expect(check(root).output).toContain("check-steps: 2 steps, 0 errors");
  });

  it("accepts given files that the step holds, and no test, helper or missing file", () => {
    const root = makeRoot();
    const files = ["src/main.ts", "src/server.test.ts", "src/server.ts", "src/tools.ts"];
    write(root, "steps/02-sum/src/server.test.ts", "export {};\n");
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { given: ["src/tools.ts"] }));
    expect(check(root).output).toContain("check-steps: 2 steps, 0 errors");
    write(
      root,
      "steps/02-sum/lesson.json",
      lesson("sum", files, { given: ["src/gone.ts", "src/server.test.ts", "src/tools.ts"] }),
    );
    let { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain('error: steps/02-sum/lesson.json: given: "src/gone.ts" does not exist');
    expect(output).toContain(
      'error: steps/02-sum/lesson.json: given: "src/server.test.ts" is a test or a test\'s helper, which an exercise keeps anyway',
    );
    expect(output).not.toContain('"src/tools.ts"');
    write(root, "steps/02-sum/lesson.json", lesson("sum", files, { given: "src/tools.ts" }));
    ({ status, output } = check(root));
    expect(output).toContain("error: steps/02-sum/lesson.json: given must be an array of paths relative to the step");
  });

  it("reports a source file that neither main.ts, server.ts nor a program reaches", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/src/server.ts", "export const server = 1;\n");
    write(root, "steps/02-sum/lesson.json", lesson("sum", ["src/main.ts", "src/tools.ts"]));
    write(root, "steps/02-sum/src/test/helper.ts", "export const helper = 1;\n");
    const { output } = check(root);
    expect(output).toMatch(/^error: steps\/02-sum\/src\/tools\.ts: reached from neither src\/main\.ts/m);
    expect(output).not.toContain("src/test/helper.ts: reached");
  });

  it("fails a step file outside the tests that reads /proc; tests, their helpers and fixtures may", () => {
    const root = makeRoot();
    const reader =
      'import { readFileSync } from "node:fs";\nexport const tools = readFileSync("/proc/self/stat", "utf8");\n';
    for (const rel of ["src/tools.ts", "src/tools.test.ts", "src/test/stat.ts", "src/fixtures/stat.mjs"])
      write(root, `steps/02-sum/${rel}`, reader);
    const { status, output } = check(root);
    expect(output.split("\n").filter((line) => line.includes("/proc"))).toEqual([
      'error: steps/02-sum/src/tools.ts: contains "/proc", which macOS lacks; use what Linux and macOS share (ps, process.kill), or move it into a test',
    ]);
    expect(status).toBe(1);
  });

  it("fails a step number in a step's code, demo, fixtures and tests included", () => {
    const root = makeRoot();
    const numbered = '// Step 02 demo: as in chapter 1, steps 3 to 4.\nexport const dir = "learn-mcp-02-";\n';
    for (const rel of ["src/tools.ts", "src/fixtures/peer.mjs", "src/tools.test.ts", "src/test/helper.ts"])
      write(root, `steps/02-sum/${rel}`, numbered);
    const { status, output } = check(root);
    const found = output.split("\n").filter((line) => line.includes("names a step by number"));
    expect(found.map((line) => line.replace(/; say what.*/, ""))).toEqual(
      ["src/fixtures/peer.mjs", "src/test/helper.ts", "src/tools.test.ts", "src/tools.ts"].flatMap((rel) => [
        `error: steps/02-sum/${rel}:1: names a step by number ("Step 02")`,
        `error: steps/02-sum/${rel}:1: names a step by number ("chapter 1")`,
        `error: steps/02-sum/${rel}:1: names a step by number ("steps 3")`,
        `error: steps/02-sum/${rel}:2: names a step by number ("learn-mcp-02")`,
      ]),
    );
    expect(status).toBe(1);
  });

  it("fails a name with two meanings across steps, unless CONTRIBUTING's glossary lists it", () => {
    const root = makeRoot();
    write(root, "steps/01-echo/src/lifecycle.ts", "export class Session {}\nexport function parse() {}\n");
    write(root, "steps/02-sum/src/session.ts", "export class Session {}\nexport type parse = string;\n");
    write(root, "steps/02-sum/src/tools.ts", 'import { Tool } from "@sdk/server";\nexport const tools: Tool[] = [];\n');
    write(root, "steps/01-echo/src/tools.ts", "export interface Tool {}\n");
    // Tests, their helpers and fixtures may use any name.
    write(root, "steps/02-sum/src/test/helper.ts", "export const Session = 1;\n");
    write(root, "steps/02-sum/src/fixtures/peer.mjs", "export const Session = 1;\n");
    const meaning = (line) => line.includes("give each meaning its own name");
    expect(check(root).output.split("\n").filter(meaning)).toEqual([
      'error: steps/: "Session" is class in lifecycle.ts (step 01), class in session.ts (step 02); give each meaning ' +
        "its own name, or list the name in CONTRIBUTING.md's glossary",
      'error: steps/: "Tool" is type in tools.ts (step 01), imported from a package (step 02); give each meaning ' +
        "its own name, or list the name in CONTRIBUTING.md's glossary",
      'error: steps/: "parse" is value in lifecycle.ts (step 01), type in session.ts (step 02); give each meaning ' +
        "its own name, or list the name in CONTRIBUTING.md's glossary",
    ]);
    const table = "| Name | Meaning |\n| --- | --- |\n| `Session` | a session |\n| `Tool`, `parse` | shapes |\n";
    write(root, "CONTRIBUTING.md", `# Contributing\n\n## Glossary\n\n${table}\n## Other\n\n| \`server\` | x |\n`);
    expect(check(root).output.split("\n").filter(meaning)).toEqual([]);
  });

  it("fails a file that keeps its path into the next step but exports none of its names", () => {
    const root = makeRoot();
    write(root, "steps/01-echo/src/tools.ts", "export const list = [];\n");
    const { status, output } = check(root);
    expect(output).toContain(
      "error: steps/02-sum/src/tools.ts: exports tools, none of what the file exported in steps/01-echo (list); " +
        "a new meaning wants a new file name",
    );
    expect(status).toBe(1);
    write(root, "steps/02-sum/src/tools.ts", "export const tools = [];\nexport const list = [];\n");
    expect(check(root).output).not.toContain("none of what the file exported");
  });

  it("names code that names a step folder, a role that points nowhere, and a role of a later step", () => {
    const root = makeRoot();
    write(root, "scripts/bench.mjs", 'import "../steps/01-echo/src/server.ts";\n');
    write(
      root,
      "steps/roles.json",
      JSON.stringify({
        "echo server": "01-echo/src/server.ts",
        "sum server": "02-sum/src/server.ts",
        lost: "01-echo/src/lost.ts",
      }),
    );
    write(
      root,
      "steps/02-sum/src/main.ts",
      'console.log("02-sum", roleProgram("sum server"), roleProgram("echo server"));\n',
    );
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain(
      "error: scripts/bench.mjs: names steps/01-echo; find its program through steps/roles.json instead",
    );
    expect(output).toContain(
      'error: steps/roles.json: role "lost" names 01-echo/src/lost.ts, which is no file of a step',
    );
    expect(output).toContain(
      'error: steps/02-sum/src/main.ts: uses role "sum server", played by steps/02-sum, which is not an earlier step',
    );
    expect(output).not.toContain('"echo server", played');
  });

  it("fails non-contiguous numbering", () => {
    const root = makeRoot();
    renameSync(path.join(root, "steps/02-sum"), path.join(root, "steps/03-sum"));
    renameSync(path.join(root, "docs/02-sum.md"), path.join(root, "docs/03-sum.md"));
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain("error: steps/03-sum: steps are numbered from 01 without gaps; expected 02 here");
  });

  it("fails two steps with one number", () => {
    const root = makeRoot();
    cpSync(path.join(root, "steps/02-sum"), path.join(root, "steps/02-sums"), { recursive: true });
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain("error: steps/02-sums: shares its number with steps/02-sum");
  });

  it("fails a missing chapter and a chapter without a step", () => {
    const root = makeRoot();
    renameSync(path.join(root, "docs/02-sum.md"), path.join(root, "docs/02-sums.md"));
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain("error: steps/02-sum: chapter docs/02-sum.md is missing");
    expect(output).toContain("error: docs/02-sums.md: no step folder steps/02-sums has this name");
  });

  it("fails a wrong package name, a missing main.ts, differing scripts and a list in step 01", () => {
    const root = makeRoot();
    write(root, "steps/01-echo/package.json", JSON.stringify({ name: "echo", scripts: { ...SCRIPTS, start: "x" } }));
    write(root, "steps/01-echo/lesson.json", lesson("echo", ["src/main.ts"]));
    rmSync(path.join(root, "steps/02-sum/src/main.ts"));
    const { output } = check(root);
    expect(output).toContain('error: steps/01-echo/package.json: name must be "@learn-mcp/01-echo", not "echo"');
    expect(output).toContain("error: steps/01-echo/lesson.json: step 01 must list nothing in changes");
    expect(output).toContain("error: steps/02-sum: src/main.ts (the runner's demo) is missing");
    expect(output).toContain(
      "error: steps/02-sum/package.json: differs from steps/01-echo's in more than its name and dependencies",
    );
  });

  it("fails a differing tsconfig.json", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/tsconfig.json", "{}\n");
    expect(check(root).output).toContain("error: steps/02-sum/tsconfig.json: differs from steps/01-echo's");
  });

  it("warns, without failing, about a long function and a long file", () => {
    const root = makeRoot();
    const body = Array.from({ length: 160 }, (_, i) => `  console.log(${i});`).join("\n");
    write(root, "steps/01-echo/src/main.ts", `function long() {\n${body}\n}\n`);
    write(root, "steps/02-sum/src/main.ts", `function long() {\n${body}\n}\nconst more = () => {\n${body}\n};\n`);
    const { status, output } = check(root);
    expect(output).toContain("warning: steps/01-echo/src/main.ts has 162 lines");
    expect(output).toContain("warning: steps/01-echo/src/main.ts:1 long is 162 lines");
    expect(output).toContain("warning: steps/02-sum/src/main.ts:163 more is 162 lines");
    expect(output).toContain("check-steps: 2 steps, 0 errors, 5 warnings");
  });

  it("fails a comment past 120 characters, on its own line or after code, in a step or the tooling", () => {
    const root = makeRoot();
    const words = "word ".repeat(24).trim();
    write(root, "steps/01-echo/src/main.ts", `// ${words}\nconsole.log("01-echo");\n`);
    write(root, "steps/01-echo/src/main.test.ts", `/** ${words} */\n`);
    write(root, "scripts/tool.mjs", `const x = 1; // ${words}\nconst url = "http://example.com/${"a".repeat(120)}";\n`);
    const { status, output } = check(root);
    const errors = output.split("\n").filter((line) => line.includes("a comment past 120"));
    expect(errors).toEqual([
      "error: steps/01-echo/src/main.test.ts:1: a comment past 120 characters; wrap it (Prettier does not)",
      "error: steps/01-echo/src/main.ts:1: a comment past 120 characters; wrap it (Prettier does not)",
      "error: scripts/tool.mjs:1: a comment past 120 characters; wrap it (Prettier does not)",
    ]);
    expect(status).toBe(1);
  });

  it("finds a function whose signature spans lines, and applies the guides to the tooling, tests aside", () => {
    const root = makeRoot();
    const body = Array.from({ length: 30 }, (_, i) => `  console.log(${i});`).join("\n");
    write(root, "steps/01-echo/src/main.ts", `function wrapped(\n  a: number,\n  b: number,\n): void {\n${body}\n}\n`);
    write(root, "scripts/tool.mjs", `export const tool = async () => {\n${body}\n};\n`);
    write(root, "steps/runner/tool.test.mjs", `function long() {\n${body}\n}\n`);
    const { status, output } = check(root);
    expect(output).toContain("warning: steps/01-echo/src/main.ts:1 wrapped is 35 lines (guide: 30)");
    expect(output).toContain("warning: scripts/tool.mjs:1 tool is 32 lines (guide: 30)");
    expect(output).not.toContain("tool.test.mjs");
    expect(status).toBe(0);
    expect(status).toBe(0);
  });

  it("reports a median over 190 added lines, and a step over 250 without a reason or a reason without need", () => {
    const root = makeRoot();
    const lines = (call) => Array.from({ length: 260 }, (_, i) => `${call}(${i});`).join("\n") + "\n";
    write(root, "steps/01-echo/src/main.ts", lines("console.log"));
    write(root, "steps/01-echo/lesson.json", lesson("echo", [], { reason: "it is long" }));
    write(root, "steps/02-sum/src/main.ts", lines("console.info"));
    const { output } = check(root);
    // 01 adds 260 + 1 (server.ts); 02 rewrites main.ts (260) and adds 2 + 1 in server.ts and tools.ts.
    expect(output).toMatch(
      /^error: steps\/: the median step adds 262 lines of source \(rule: at most 190; per step: 261, 263\)$/m,
    );
    expect(output).not.toContain("steps/01-echo adds");
    expect(output).toMatch(/^error: steps\/02-sum adds 263 lines of source \(over 250\); say why/m);
    write(root, "steps/02-sum/src/main.ts", 'console.log("sum");\n');
    write(
      root,
      "steps/02-sum/lesson.json",
      lesson("sum", ["src/main.ts", "src/server.ts", "src/tools.ts"], { reason: "short" }),
    );
    expect(check(root).output).toMatch(
      /^error: steps\/02-sum\/lesson\.json: reason is given, but the step adds only 4 lines$/m,
    );
  });

  it("does not count short functions or control blocks as long", () => {
    const root = makeRoot();
    const body = Array.from({ length: 40 }, (_, i) => `    console.log(${i});`).join("\n");
    write(
      root,
      "steps/01-echo/src/main.ts",
      `if (process.argv.length > 9) {\n${body}\n}\nfunction f() {\n  return 1;\n}\n`,
    );
    expect(check(root).output).toContain("check-steps: 2 steps, 0 errors, 0 warnings");
  });
});

describe("restored files", () => {
  // 01 has banner.ts and its test, 02 removes both, 03 brings both back byte-identical: restored files.
  function restoringRoot(given) {
    const root = makeRoot();
    const banner = { "src/banner.ts": "export const banner = 1;\n", "src/banner.test.ts": "test();\n" };
    for (const [rel, text] of Object.entries(banner)) write(root, `steps/01-echo/${rel}`, text);
    write(
      root,
      "steps/01-echo/src/server.ts",
      'import { banner } from "./banner.ts";\nexport const server = banner;\n',
    );
    const sum = ["src/banner.test.ts", "src/banner.ts", "src/main.ts", "src/server.ts", "src/tools.ts"];
    write(root, "steps/02-sum/lesson.json", lesson("sum", sum));
    cpSync(path.join(root, "steps/02-sum"), path.join(root, "steps/03-back"), { recursive: true });
    for (const [rel, text] of Object.entries(banner)) write(root, `steps/03-back/${rel}`, text);
    write(root, "steps/03-back/package.json", pkg("03-back"));
    write(root, "steps/03-back/src/main.ts", 'import { banner } from "./banner.ts";\nconsole.log(banner);\n');
    const back = ["src/banner.test.ts", "src/banner.ts", "src/main.ts"];
    write(root, "steps/03-back/lesson.json", lesson("back", back, given ? { given } : {}));
    write(root, "docs/03-back.md", "# 03-back\n");
    return root;
  }

  it("fails a restored file lesson.json does not give, passes it once given; a restored test needs none", () => {
    const missing = check(restoringRoot());
    expect(missing.status).toBe(1);
    expect(missing.output).toContain(
      "error: steps/03-back/src/banner.ts: restored unchanged from steps/01-echo (steps/02-sum has none), so it " +
        'teaches nothing new: list it in lesson.json "given" so that the exercise copies it',
    );
    expect(missing.output).not.toContain("banner.test.ts");
    expect(missing.output).toContain("1 errors");
    const given = check(restoringRoot(["src/banner.ts"]));
    expect(given.output).toContain("check-steps: 3 steps, 0 errors");
    expect(given.status).toBe(0);
  });

  it("does not take a file that comes back changed for a restored one", () => {
    const root = restoringRoot();
    write(root, "steps/03-back/src/banner.ts", "export const banner = 2;\n");
    expect(check(root).output).toContain("check-steps: 3 steps, 0 errors");
  });
});

describe("the size rule", () => {
  // A step of `count` added lines: its only file is main.ts, none of whose lines the step before it has.
  function stepOf(root, name, count, lesson = {}) {
    const call = `f${name.replace(/\W/g, "_")}`;
    write(root, `steps/${name}/src/main.ts`, Array.from({ length: count }, (_, i) => `${call}(${i});\n`).join(""));
    return { name, dir: path.join(root, "steps", name), files: ["src/main.ts"], lesson };
  }
  const sizes = (steps) => {
    const problems = [];
    checkSizes(steps, problems);
    return problems;
  };
  const empty = (root, name) => ({ name, dir: path.join(root, "steps", name), files: [], lesson: {} });

  it("refuses a step over 300 lines even with a reason, and a fourth step over 250", () => {
    const root = makeRoot();
    const reason = { reason: "long" };
    const big = [301, 260, 260, 260].map((n, i) => stepOf(root, `0${i + 1}-big${i}`, n, reason));
    const steps = big.flatMap((step, i) => [step, empty(root, `1${i}-small`)]);
    expect(sizes(steps)).toEqual([
      "steps/01-big0 adds 301 lines of source (rule: at most 300); split it",
      "steps/: 4 steps add over 250 lines (01-big0, 02-big1, 03-big2, 04-big3); at most 3 may",
    ]);
  });

  it("fails a median over 190 lines", () => {
    const root = makeRoot();
    const steps = [240, 191, 192, 193].map((n, i) => stepOf(root, `0${i + 1}-mid${i}`, n));
    expect(sizes(steps)).toEqual([
      "steps/: the median step adds 192.5 lines of source (rule: at most 190; per step: 240, 191, 192, 193)",
    ]);
    expect(sizes([240, 189, 190, 190].map((n, i) => stepOf(root, `1${i + 1}-mid${i}`, n)))).toEqual([]);
  });

  it("counts a restored file as 0 added lines, and a file that comes back changed in full", () => {
    const root = makeRoot();
    const first = stepOf(root, "01-first", 260, { reason: "long" });
    const gap = empty(root, "02-gap");
    const back = stepOf(root, "03-back", 0);
    // Two steps that add nothing, so that the median stays out of it.
    const steps = [first, gap, back, empty(root, "04-none"), empty(root, "05-none")];
    write(root, "steps/03-back/src/main.ts", readFileSync(path.join(first.dir, "src/main.ts"), "utf8"));
    expect(sizes(steps)).toEqual([]);
    write(
      root,
      "steps/03-back/src/main.ts",
      `// changed\n${readFileSync(path.join(first.dir, "src/main.ts"), "utf8")}`,
    );
    expect(sizes(steps)).toEqual([
      'steps/03-back adds 261 lines of source (over 250); say why in lesson.json "reason", or split it',
    ]);
  });
});

describe("check-steps.mjs --fix", () => {
  // Keys in an unusual order and a one-line array: --fix must rewrite the changes value and nothing else.
  const stale = [
    "{",
    '  "title": "sum",',
    '  "changes": [',
    '    "src/main.ts",',
    '    "src/gone.ts"',
    "  ],",
    '  "given": ["src/tools.ts"],',
    '  "part": "by hand over stdio"',
    "}",
    "",
  ].join("\n");
  const read = (root, rel) => readFileSync(path.join(root, rel), "utf8");
  // The steps as check-steps.mjs hands them to fixChanges, for the checks that need no second process.
  const stepsOf = (root) => ["01-echo", "02-sum"].map((name) => ({ name, dir: path.join(root, "steps", name) }));

  it("writes each lesson.json's changes from the files, keeping the other keys, their order and layout", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/lesson.json", stale);
    // Without --fix nothing is written.
    expect(check(root).output).not.toContain("changes fixed");
    expect(read(root, "steps/02-sum/lesson.json")).toBe(stale);
    const { status, output } = check(root, "--fix");
    expect(output).toContain("steps/02-sum/lesson.json: changes fixed: +src/server.ts +src/tools.ts -src/gone.ts");
    expect(read(root, "steps/02-sum/lesson.json")).toBe(
      stale.replace(
        '    "src/main.ts",\n    "src/gone.ts"',
        '    "src/main.ts",\n    "src/server.ts",\n    "src/tools.ts"',
      ),
    );
    expect(output).toContain("check-steps: 2 steps, 0 errors");
    expect(status).toBe(0);
    // Nothing is left to fix.
    expect(fixChanges(stepsOf(root), { write: false })).toEqual([]);
  });

  it("adds a missing changes key after part, and lists a removed file", () => {
    const root = makeRoot();
    write(root, "steps/01-echo/src/old.ts", "export {};\n");
    write(root, "steps/02-sum/lesson.json", JSON.stringify({ title: "sum", part: "by hand over stdio", reason: "r" }));
    const { output } = check(root, "--fix");
    expect(output).toContain("steps/02-sum/lesson.json: changes fixed: +src/main.ts +src/old.ts");
    expect(Object.keys(JSON.parse(read(root, "steps/02-sum/lesson.json")))).toEqual([
      "title",
      "part",
      "changes",
      "reason",
    ]);
    expect(JSON.parse(read(root, "steps/02-sum/lesson.json")).changes).toEqual([
      "src/main.ts",
      "src/old.ts",
      "src/server.ts",
      "src/tools.ts",
    ]);
    // Step 01 lists nothing, and is not given a changes key it does not need.
    write(root, "steps/01-echo/lesson.json", JSON.stringify({ title: "echo", part: "by hand over stdio" }));
    expect(fixChanges(stepsOf(root), { write: false })).toEqual([]);
  });
});
