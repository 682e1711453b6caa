// The --changed selection on a small git repository under the temporary folder: which tests differ from HEAD, with
// the working tree, the index and untracked files counted, and which tooling folders run.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changedCode, changedFilters, changedReport, selectChanged } from "./changed.mjs";

const roots = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

function git(root, ...args) {
  const identity = ["-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"];
  const result = spawnSync("git", ["-C", root, ...identity, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

const SERVER_TEST = 'const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));\n';
const SERVER = 'import { frame } from "./framing.ts";\nprocess.stdout.write(frame("hello"));\n';
const FRAMING = "export const frame = (text) => `${text}\\n`;\n";
const CHANGED_FRAMING = "export const frame = (text) => `${text}\\r\\n`;\n";

// Two identical steps, a scripts folder and the runner's shared folder, all committed.
function makeRepo() {
  const root = mkdtempSync(path.join(os.tmpdir(), "changed-test-"));
  roots.push(root);
  write(root, "vitest.config.ts", "export default {};\n");
  for (const folder of ["01-a", "02-b"]) {
    write(root, `steps/${folder}/package.json`, `${JSON.stringify({ name: `@learn-mcp/${folder}` }, null, 2)}\n`);
    write(root, `steps/${folder}/tsconfig.json`, '{ "include": ["src"] }\n');
    write(root, `steps/${folder}/src/server.test.ts`, SERVER_TEST);
    write(root, `steps/${folder}/src/server.ts`, SERVER);
    write(root, `steps/${folder}/src/framing.ts`, FRAMING);
  }
  write(root, "scripts/check.mjs", "export {};\n");
  write(root, "steps/runner/cli.mjs", "export {};\n");
  write(root, "steps/runner/shared/repo.mjs", "export {};\n");
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "steps");
  return root;
}

/** file or folder → why it runs, or "skip: why" for a test that differs from HEAD but is a copy of one that runs. */
function verdicts(root) {
  const { run, skipped, tooling } = selectChanged({ root });
  return Object.fromEntries([
    ...run.map(({ file, why }) => [file, why]),
    ...skipped.map(({ file, why }) => [file, `skip: ${why}`]),
    ...tooling.map(({ folder, why }) => [`${folder}/`, why]),
  ]);
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("selectChanged", () => {
  it("selects nothing at HEAD, then the one test whose reached file changed in the working tree", () => {
    const root = makeRepo();
    expect(verdicts(root)).toEqual({});
    expect(changedFilters(selectChanged({ root }), root)).toEqual([]);
    write(root, "steps/02-b/src/framing.ts", CHANGED_FRAMING);
    expect(verdicts(root)).toEqual({ "steps/02-b/src/server.test.ts": "src/framing.ts changed since HEAD" });
    const report = changedReport(selectChanged({ root }));
    expect(report[0]).toBe("test --changed: running 1 of 2 step test files (1 with the inputs they had at HEAD)");
    expect(report).toContain("  run  steps/02-b/src/server.test.ts: src/framing.ts changed since HEAD");
    expect(report).toContain("  skip scripts/ tests: none of their files differ");
  });

  it("counts untracked and staged files: a new test runs, and so does one whose server imports a new file", () => {
    const root = makeRepo();
    write(root, "steps/01-a/src/extra.test.ts", "export {};\n");
    write(root, "steps/02-b/src/server.ts", `import "./log.ts";\n${SERVER}`);
    write(root, "steps/02-b/src/log.ts", "export {};\n");
    git(root, "add", "steps/02-b/src/server.ts");
    expect(verdicts(root)).toEqual({
      "steps/01-a/src/extra.test.ts": "new since HEAD",
      "steps/02-b/src/server.test.ts": "src/server.ts changed since HEAD",
    });
  });

  it("runs one of two copies that changed alike, and says which one the other is the same as", () => {
    const root = makeRepo();
    write(root, "steps/01-a/src/framing.ts", CHANGED_FRAMING);
    write(root, "steps/02-b/src/framing.ts", CHANGED_FRAMING);
    expect(verdicts(root)).toEqual({
      "steps/01-a/src/server.test.ts": "src/framing.ts changed since HEAD",
      "steps/02-b/src/server.test.ts": "skip: same as steps/01-a/src/server.test.ts, which runs",
    });
    expect(changedFilters(selectChanged({ root }), root)).toEqual(["steps/01-a/src/server.test.ts"]);
  });

  it("matches a renumbered step to HEAD's by its slug: only the inserted step's tests are new", () => {
    const root = makeRepo();
    renameSync(path.join(root, "steps/02-b"), path.join(root, "steps/03-b"));
    cpSync(path.join(root, "steps/01-a"), path.join(root, "steps/02-new"), { recursive: true });
    expect(verdicts(root)).toEqual({ "steps/02-new/src/server.test.ts": "new since HEAD" });
  });

  it("runs a tooling folder's tests when it or the runner's shared folder differs; format-checks it", () => {
    const root = makeRepo();
    write(root, "scripts/new.mjs", "export {};\n");
    expect(verdicts(root)).toEqual({ "scripts/": "scripts/new.mjs differs from HEAD" });
    rmSync(path.join(root, "scripts/new.mjs"));
    write(root, "steps/runner/shared/repo.mjs", "export const changed = true;\n");
    expect(verdicts(root)).toEqual({
      "scripts/": "steps/runner/shared/repo.mjs differs from HEAD",
      "steps/runner/": "steps/runner/shared/repo.mjs differs from HEAD",
    });
    write(root, "steps/01-a/notes.md", "not code\n");
    expect(changedCode(root)).toEqual(["steps/runner/shared/repo.mjs"]);
    const filters = changedFilters(selectChanged({ root }), root);
    expect(filters).toEqual([`${path.join(root, "scripts")}/`, `${path.join(root, "steps/runner")}/`]);
  });
});
