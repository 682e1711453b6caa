// Which changes move a command block's inputs digest, on a throwaway repository of two steps and a runner.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inputsReader } from "./block-inputs.mjs";

const dirs = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

// Step 02's demo imports a module and reads the role table, whose one program lives in step 01.
function makeRoot() {
  const root = mkdtempSync(path.join(os.tmpdir(), "docs-inputs-test-"));
  dirs.push(root);
  const files = {
    "steps/01-one/lesson.json": '{ "title": "One" }\n',
    "steps/01-one/src/main.ts": 'console.log("one");\n',
    "steps/01-one/src/server.ts": 'import "./tools.ts";\n',
    "steps/01-one/src/tools.ts": "export {};\n",
    "steps/02-two/lesson.json": '{ "title": "Two" }\n',
    "steps/02-two/src/main.ts": 'import { greet } from "./greet.ts";\nconst roles = "../../roles.json";\n',
    "steps/02-two/src/greet.ts": "export const greet = 1;\n",
    "steps/02-two/src/greet.test.ts": "// a test\n",
    "steps/roles.json": '{ "server": "01-one/src/server.ts" }\n',
    "steps/run.mjs": 'import "./runner/cli.mjs";\n',
    "steps/runner/cli.mjs": "export {};\n",
    "steps/runner/shared/repo.mjs": "export {};\n",
    "steps/runner/run.test.mjs": "// a test\n",
    "steps/runner/test/helper.mjs": "export {};\n",
    "scripts/tool/print.mjs": 'import "./lib.mjs";\n',
    "scripts/tool/lib.mjs": "export {};\n",
    "scripts/tool/data.json": "{}\n",
    "scripts/tool/versions.mjs":
      "const at = (name) => new URL(`../node_modules/${name}/package.json`, import.meta.url);\n",
    "scripts/node_modules/.bin/tsx": "#!/bin/sh\nexec /old/checkout/tsx\n",
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
    "docs/02-two.md": "# Two\n",
  };
  for (const [rel, text] of Object.entries(files)) write(root, rel, text);
  return root;
}

/** Whether writing `text` to `rel` changes the digest of `kind args`. */
function moves(kind, args, rel, text = "// changed\n") {
  const root = makeRoot();
  const before = inputsReader(root)({ kind, args });
  write(root, rel, text);
  const after = inputsReader(root)({ kind, args });
  expect(before.digest).toMatch(/^[0-9a-f]{64}$/);
  return before.digest !== after.digest;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the inputs of run and wire blocks", () => {
  it.each([
    ["a file the demo imports", "steps/02-two/src/greet.ts"],
    ["a file of the step that the demo does not reach", "steps/02-two/src/greet.test.ts"],
    ["the step's lesson.json", "steps/02-two/lesson.json"],
    ["a role program, reached through the role table", "steps/01-one/src/server.ts"],
    ["a module a role program imports", "steps/01-one/src/tools.ts"],
    ["a runner module", "steps/runner/shared/repo.mjs"],
    ["the role table", "steps/roles.json"],
    ["the lockfile", "pnpm-lock.yaml"],
    ["a new file in the step", "steps/02-two/src/new.ts"],
  ])("change with %s", (_what, rel) => {
    expect(moves("run", "2", rel)).toBe(true);
  });

  it.each([
    ["the runner's tests", "steps/runner/run.test.mjs"],
    ["the runner's test helpers", "steps/runner/test/helper.mjs"],
    ["a chapter", "docs/02-two.md"],
    ["a step file no role names", "steps/01-one/src/main.ts"],
  ])("stay the same when only %s changes", (_what, rel) => {
    expect(moves("wire", "2", rel)).toBe(false);
  });

  it("of a wire block with filters are its step's, and differ from the same block without them", () => {
    expect(moves("wire", '2 --only "tools/call" --first 1', "steps/02-two/src/greet.ts")).toBe(true);
    const read = inputsReader(makeRoot());
    expect(read({ kind: "wire", args: "2 --first 1" }).digest).not.toBe(read({ kind: "wire", args: "2" }).digest);
  });

  it("include the role table even when the demo does not name it", () => {
    expect(moves("run", "1", "steps/roles.json")).toBe(true);
  });

  it("differ between run and wire of the same step", () => {
    const read = inputsReader(makeRoot());
    expect(read({ kind: "run", args: "2" }).digest).not.toBe(read({ kind: "wire", args: "2" }).digest);
  });

  it("are the same for a copy of the repository in another folder", () => {
    const root = makeRoot();
    const copy = path.join(mkdtempSync(path.join(os.tmpdir(), "docs-inputs-copy-")), "elsewhere");
    dirs.push(path.dirname(copy));
    cpSync(root, copy, { recursive: true });
    expect(inputsReader(copy)({ kind: "run", args: "2" }).digest).toBe(
      inputsReader(root)({ kind: "run", args: "2" }).digest,
    );
  });

  it("cannot be determined for a step that does not exist", () => {
    expect(inputsReader(makeRoot())({ kind: "run", args: "7" })).toEqual({
      undetermined: expect.stringContaining("no step 7"),
    });
  });
});

describe("the inputs of diff and stat blocks", () => {
  it("include the previous step, which a demo does not", () => {
    expect(moves("stat", "2", "steps/01-one/src/main.ts")).toBe(true);
    expect(moves("diff", "2 src/greet.ts", "steps/01-one/src/main.ts")).toBe(true);
    expect(moves("run", "2", "steps/01-one/src/main.ts")).toBe(false);
  });

  it("include an earlier step's copy of a file new in the step, which the step may restore, and no other", () => {
    const root = makeRoot();
    write(root, "steps/03-three/lesson.json", '{ "title": "Three" }\n');
    write(root, "steps/03-three/src/tools.ts", "export {};\n");
    const digest = () => inputsReader(root)({ kind: "diff", args: "3" }).digest;
    const before = digest();
    write(root, "steps/01-one/src/tools.ts", "// changed\n");
    const after = digest();
    expect(after).not.toBe(before);
    write(root, "steps/01-one/src/server.ts", "// changed\n");
    expect(digest()).toBe(after);
  });
});

describe("the inputs of exercise blocks", () => {
  it("include both steps, the runner's exercise and shared code and the base tsconfig, nothing else", () => {
    expect(moves("exercise", "2", "steps/02-two/src/greet.ts")).toBe(true);
    expect(moves("exercise", "2", "steps/01-one/src/tools.ts")).toBe(true);
    expect(moves("exercise", "2", "steps/01-one/lesson.json", '{ "title": "One", "part": "the host" }\n')).toBe(true);
    expect(moves("exercise", "2", "steps/runner/exercise/blanks.mjs")).toBe(true);
    expect(moves("exercise", "2", "steps/runner/shared/repo.mjs")).toBe(true);
    expect(moves("exercise", "2", "tsconfig.base.json")).toBe(true);
    expect(moves("exercise", "2", "steps/runner/cli.mjs")).toBe(false);
    expect(moves("exercise", "2", "docs/02-two.md")).toBe(false);
  });
});

describe("the inputs of exec blocks", () => {
  it("include a file the command names and what it imports, and not its neighbours", () => {
    expect(moves("exec", "node scripts/tool/print.mjs", "scripts/tool/print.mjs")).toBe(true);
    expect(moves("exec", "node scripts/tool/print.mjs", "scripts/tool/lib.mjs")).toBe(true);
    expect(moves("exec", "node scripts/tool/print.mjs", "scripts/tool/data.json")).toBe(false);
  });

  it("include every file of a folder under scripts/ that the command names", () => {
    expect(moves("exec", "ls scripts/tool", "scripts/tool/data.json")).toBe(true);
  });

  it("include the step a runner command runs", () => {
    expect(moves("exec", "node steps/run.mjs 2 --wire | grep x", "steps/02-two/src/greet.ts")).toBe(true);
    expect(moves("exec", "node steps/run.mjs --list", "steps/01-one/lesson.json")).toBe(true);
    expect(moves("exec", "node steps/run.mjs 2 --diff", "steps/01-one/src/main.ts")).toBe(true);
    expect(moves("exec", "node steps/run.mjs 2 --wire", "steps/01-one/src/main.ts")).toBe(false);
  });

  it("count installed files through the lockfile only, since installs of one lockfile lay out different files", () => {
    const command = "steps/01-one/node_modules/.bin/tool --help";
    const shim = "steps/01-one/node_modules/.bin/tool";
    expect(moves("exec", command, shim, "#!/bin/sh\nexec /new/checkout/tool\n")).toBe(false);
    expect(moves("exec", "node scripts/tool/versions.mjs", "scripts/node_modules/.bin/vite")).toBe(false);
    expect(moves("exec", "node scripts/tool/versions.mjs", "scripts/tool/versions.mjs")).toBe(true);
    expect(moves("exec", command, "pnpm-lock.yaml")).toBe(true);
  });

  it("ignore absolute paths and shell variables, which name nothing in the repository", () => {
    expect(moves("exec", "cat /steps/roles.json $d/steps/roles.json", "steps/roles.json")).toBe(false);
  });

  it("cannot be determined when the command changes directory or names another folder", () => {
    const read = inputsReader(makeRoot());
    expect(read({ kind: "exec", args: "cd steps && ls" }).undetermined).toBe("the command changes directory");
    expect(read({ kind: "exec", args: "ls docs" }).undetermined).toBe("the command names the folder docs");
  });
});
