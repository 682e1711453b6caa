// check-steps.mjs end to end on fixture step trees (--root): one test per kind of error or warning.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const CHECK = path.join(import.meta.dirname, "check-steps.mjs");
const roots = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

const pkg = (name, changes) =>
  JSON.stringify(
    {
      name: `@learn-mcp/${name}`,
      description: `chapter ${name}`,
      lesson: { changes },
      scripts: { start: "tsx src/main.ts", test: "vitest run", typecheck: "tsc --noEmit -p tsconfig.json" },
    },
    null,
    2,
  );

// Two well-formed steps: 02 changes main.ts and adds tools.ts, and says so.
function makeRoot() {
  const root = mkdtempSync(path.join(os.tmpdir(), "check-steps-test-"));
  roots.push(root);
  for (const [name, changes] of [["01-echo", []], ["02-sum", ["src/main.ts", "src/tools.ts"]]]) {
    write(root, `steps/${name}/package.json`, pkg(name, changes));
    write(root, `steps/${name}/tsconfig.json`, '{ "include": ["src"] }\n');
    write(root, `steps/${name}/src/server.ts`, "export const server = 1;\n");
    write(root, `steps/${name}/src/main.ts`, `console.log("${name}");\n`);
    write(root, `docs/${name}.md`, `# ${name}\n`);
  }
  write(root, "steps/02-sum/src/tools.ts", "export const tools = [];\n");
  write(root, "steps/run.mjs", "// not a step\n");
  write(root, "docs/appendix-glossary.md", "# Glossary\n");
  return root;
}

function check(root) {
  const result = spawnSync(process.execPath, [CHECK, "--root", root], { encoding: "utf8" });
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
    write(root, "steps/02-sum/src/server.ts", "export const server = 2;\n");
    const { status, output } = check(root);
    expect(status).toBe(1);
    expect(output).toContain("error: steps/02-sum/src/server.ts: differs from steps/01-echo's but is not listed in lesson.changes");
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
    expect(output).toContain(`lists "src/main.ts", which is identical to steps/01-echo's`);
  });

  it("compares package.json without name, description and lesson", () => {
    const root = makeRoot();
    write(root, "steps/02-sum/package.json", pkg("02-sum", ["src/main.ts", "src/tools.ts", "package.json"]));
    expect(check(root).output).toContain(`lists "package.json", which is identical`);
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
    const broken = JSON.parse(pkg("01-echo", ["src/main.ts"]));
    write(root, "steps/01-echo/package.json", JSON.stringify({ ...broken, name: "echo", scripts: { start: "x" } }));
    rmSync(path.join(root, "steps/02-sum/src/main.ts"));
    const { output } = check(root);
    expect(output).toContain('error: steps/01-echo/package.json: name must be "@learn-mcp/01-echo", not "echo"');
    expect(output).toContain("error: steps/01-echo/package.json: step 01 must list nothing in lesson.changes");
    expect(output).toContain("error: steps/02-sum: src/main.ts (the runner's demo) is missing");
    expect(output).toContain("error: steps/02-sum/package.json: scripts differ from steps/01-echo's");
  });

  it("fails a differing tsconfig.json and an entry file outside src/", () => {
    const root = makeRoot();
    cpSync(path.join(root, "steps/02-sum/src/server.ts"), path.join(root, "steps/02-sum/server.ts"));
    write(root, "steps/02-sum/tsconfig.json", "{}\n");
    const { output } = check(root);
    expect(output).toContain("error: steps/02-sum/tsconfig.json: differs from steps/01-echo's");
    expect(output).toContain("error: steps/02-sum/server.ts: entry files");
  });

  it("warns, without failing, about a long function, a long file and a large step", () => {
    const root = makeRoot();
    const body = Array.from({ length: 160 }, (_, i) => `  console.log(${i});`).join("\n");
    write(root, "steps/01-echo/src/main.ts", `function long() {\n${body}\n}\n`);
    write(root, "steps/02-sum/src/main.ts", `function long() {\n${body}\n}\nconst more = () => {\n${body}\n};\n`);
    const { status, output } = check(root);
    expect(output).toContain("warning: steps/01-echo/src/main.ts has 162 lines");
    expect(output).toContain("warning: steps/01-echo/src/main.ts:1 long is 162 lines");
    expect(output).toContain("warning: steps/02-sum/src/main.ts:163 more is 162 lines");
    expect(output).toContain("warning: steps/02-sum adds 163 lines of source over 01-echo");
    expect(output).toContain("check-steps: 2 steps, 0 errors, 6 warnings");
    expect(status).toBe(0);
  });

  it("does not count short functions or control blocks as long", () => {
    const root = makeRoot();
    const body = Array.from({ length: 40 }, (_, i) => `    console.log(${i});`).join("\n");
    write(root, "steps/01-echo/src/main.ts", `if (process.argv.length > 9) {\n${body}\n}\nfunction f() {\n  return 1;\n}\n`);
    expect(check(root).output).toContain("check-steps: 2 steps, 0 errors, 0 warnings");
  });
});
