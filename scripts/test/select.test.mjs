// The test selection on fixture step trees: which tests run, which are skipped, and why; then vitest's own filtering.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { contentReader, difference, testInputs } from "./inputs.mjs";
import { selectTests, summary, vitestFilters } from "./select.mjs";

const VITEST = path.join(import.meta.dirname, "..", "..", "node_modules", ".bin", "vitest");
const roots = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

const pkg = (folder, devDependencies = { vitest: "catalog:" }) =>
  `${JSON.stringify({ name: `@learn-mcp/${folder}`, private: true, devDependencies }, null, 2)}\n`;

// Steps that are identical copies of `files` but for each package.json's name, which every step needs its own of.
function makeRoot(files, folders = ["01-a", "02-b"]) {
  const root = mkdtempSync(path.join(os.tmpdir(), "select-test-"));
  roots.push(root);
  write(root, "vitest.config.ts", "export default {};\n");
  for (const folder of folders) {
    write(root, `steps/${folder}/package.json`, pkg(folder));
    write(root, `steps/${folder}/tsconfig.json`, '{ "include": ["src"] }\n');
    for (const [rel, text] of Object.entries(files)) write(root, `steps/${folder}/${rel}`, text);
  }
  return root;
}

/** file → why it runs, or "same as <file>" when it is skipped. */
function verdicts(root) {
  const { run, skipped } = selectTests({ root });
  return Object.fromEntries([
    ...run.map(({ file, why }) => [file, why]),
    ...skipped.map(({ file, sameAs }) => [file, `same as ${sameAs}`]),
  ]);
}

const SERVER_TEST = 'const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));\n';
const SERVER = 'import { frame } from "./framing.ts";\nprocess.stdout.write(frame("hello"));\n';
const FRAMING = "export const frame = (text) => `${text}\\n`;\n";
const FIXTURE_TEST = "const fixture = (name) => new URL(`./fixtures/${name}.mjs`, import.meta.url);\n";
const SERVER_FILES = { "src/server.test.ts": SERVER_TEST, "src/server.ts": SERVER, "src/framing.ts": FRAMING };
const ROLES_TEST = 'const table = new URL("../../roles.json", import.meta.url);\n';

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("selectTests", () => {
  it("runs step 01's tests and skips identical copies, naming the copy that ran", () => {
    const root = makeRoot(SERVER_FILES, ["01-a", "02-b", "03-c"]);
    expect(verdicts(root)).toEqual({
      "steps/01-a/src/server.test.ts": "first step",
      "steps/02-b/src/server.test.ts": "same as steps/01-a/src/server.test.ts",
      "steps/03-c/src/server.test.ts": "same as steps/01-a/src/server.test.ts",
    });
  });

  it('runs a test when only the program it starts through new URL("./server.ts") changed', () => {
    const root = makeRoot(SERVER_FILES);
    write(root, "steps/02-b/src/server.ts", SERVER.replace("hello", "hi"));
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("src/server.ts changed");
  });

  it("runs a test when a file imported by that program changed", () => {
    const root = makeRoot(SERVER_FILES);
    write(root, "steps/02-b/src/framing.ts", FRAMING.replace("\\n", "\\r\\n"));
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("src/framing.ts changed");
  });

  it("follows a template prefix into its folder: a changed or an added fixture runs the test", () => {
    const files = { "src/transport.test.ts": FIXTURE_TEST, "src/fixtures/echo.mjs": "process.stdin.resume();\n" };
    const changed = makeRoot(files);
    write(changed, "steps/02-b/src/fixtures/echo.mjs", "process.stdin.pipe(process.stdout);\n");
    expect(verdicts(changed)["steps/02-b/src/transport.test.ts"]).toBe("src/fixtures/echo.mjs changed");
    const added = makeRoot(files);
    write(added, "steps/02-b/src/fixtures/quiet.mjs", "\n");
    expect(verdicts(added)["steps/02-b/src/transport.test.ts"]).toBe("src/fixtures/quiet.mjs newly reached");
  });

  it("skips a test whose package.json differs only in its name, runs one whose dependencies differ", () => {
    const root = makeRoot(SERVER_FILES);
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("same as steps/01-a/src/server.test.ts");
    write(root, "steps/02-b/package.json", pkg("02-b", { vitest: "catalog:", zod: "catalog:" }));
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("same as steps/01-a/src/server.test.ts");
    write(root, "steps/02-b/src/server.ts", `import { z } from "zod";\n${SERVER}`);
    write(root, "steps/01-a/src/server.ts", `import { z } from "zod";\n${SERVER}`);
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("package.json changed");
  });

  it("treats a dependency field the test names nothing of like one that is not there", () => {
    const root = makeRoot(SERVER_FILES);
    const withDependencies = JSON.stringify({
      name: "@learn-mcp/02-b",
      private: true,
      dependencies: { zod: "catalog:" },
      devDependencies: { vitest: "catalog:" },
    });
    write(root, "steps/02-b/package.json", `${withDependencies}\n`);
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("same as steps/01-a/src/server.test.ts");
  });

  it("counts a dependency as named by any quoted specifier in what the test reaches", () => {
    const root = makeRoot({ ...SERVER_FILES, "src/server.test.ts": `${SERVER_TEST}import.meta.resolve('tsx/esm');\n` });
    write(
      root,
      "steps/02-b/package.json",
      pkg("02-b", { vitest: "catalog:", tsx: "catalog:", "tsx-extra": "catalog:" }),
    );
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("package.json changed");
    write(root, "steps/01-a/package.json", pkg("01-a", { vitest: "catalog:", tsx: "catalog:" }));
    // "tsx-extra" is not named: 'tsx/esm' names tsx, and a name is matched whole.
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("same as steps/01-a/src/server.test.ts");
  });

  it("runs a test when the step's tsconfig.json changed", () => {
    const root = makeRoot(SERVER_FILES);
    write(root, "steps/02-b/tsconfig.json", '{ "include": ["src", "test"] }\n');
    expect(verdicts(root)["steps/02-b/src/server.test.ts"]).toBe("tsconfig.json changed");
  });

  it("counts a path named but missing as an input: present on one side only is a difference", () => {
    const files = { "src/data.test.ts": 'const data = new URL("./data.json", import.meta.url);\n' };
    const gone = makeRoot({ ...files, "src/data.json": "{}\n" });
    rmSync(path.join(gone, "steps/02-b/src/data.json"));
    expect(verdicts(gone)["steps/02-b/src/data.test.ts"]).toBe("src/data.json now missing");
    const back = makeRoot(files);
    write(back, "steps/02-b/src/data.json", "{}\n");
    expect(verdicts(back)["steps/02-b/src/data.test.ts"]).toBe("src/data.json no longer missing");
    expect(verdicts(makeRoot(files))["steps/02-b/src/data.test.ts"]).toBe("same as steps/01-a/src/data.test.ts");
  });

  it("runs a test that reaches roles.json when a role names a program of its own step", () => {
    const root = makeRoot({ "src/roles.test.ts": ROLES_TEST, "src/server.ts": SERVER, "src/framing.ts": FRAMING });
    write(root, "steps/roles.json", '{ "server": "02-b/src/server.ts" }\n');
    write(root, "steps/02-b/src/server.ts", SERVER.replace("hello", "hi"));
    expect(verdicts(root)["steps/02-b/src/roles.test.ts"]).toBe("src/server.ts newly reached");
    // The same change with no road to roles.json: the test never starts that program, so it is skipped.
    write(root, "steps/01-a/src/roles.test.ts", "const table = null;\n");
    write(root, "steps/02-b/src/roles.test.ts", "const table = null;\n");
    expect(verdicts(root)["steps/02-b/src/roles.test.ts"]).toBe("same as steps/01-a/src/roles.test.ts");
  });

  it("skips a test that reaches roles.json when the role's program lies outside both steps", () => {
    const root = makeRoot({ "src/roles.test.ts": ROLES_TEST }, ["01-a", "02-b", "03-c"]);
    write(root, "steps/roles.json", '{ "server": "01-a/src/server.ts" }\n');
    write(root, "steps/01-a/src/server.ts", SERVER);
    write(root, "steps/01-a/src/framing.ts", FRAMING);
    expect(verdicts(root)["steps/03-c/src/roles.test.ts"]).toBe("same as steps/02-b/src/roles.test.ts");
  });

  it("runs a test whose role table cannot be read, or whose import names a missing file", () => {
    const roles = makeRoot({ "src/roles.test.ts": ROLES_TEST });
    write(roles, "steps/roles.json", '{ "server": ');
    expect(verdicts(roles)["steps/02-b/src/roles.test.ts"]).toMatch(/^unresolved: roles\.json: /);
    const imports = makeRoot({ "src/a.test.ts": 'import { helper } from "./helper.ts";\n' });
    expect(verdicts(imports)["steps/02-b/src/a.test.ts"]).toBe("unresolved: a.test.ts imports ./helper.ts");
  });

  it("runs a test file the previous step does not have", () => {
    const root = makeRoot(SERVER_FILES);
    write(root, "steps/02-b/src/framing.test.ts", 'import { frame } from "./framing.ts";\n');
    expect(verdicts(root)["steps/02-b/src/framing.test.ts"]).toBe("new");
  });

  it("says how many step test files run", () => {
    const root = makeRoot(SERVER_FILES, ["01-a", "02-b", "03-c"]);
    expect(summary(selectTests({ root }))).toBe(
      "test: running 1 of 3 step test files; 2 unchanged since the previous step (pnpm test:all runs them all)",
    );
  });
});

describe("testInputs", () => {
  it("holds the role programs and what they import, keyed from the repository root outside the step", () => {
    const root = makeRoot({ "src/roles.test.ts": ROLES_TEST });
    write(root, "steps/roles.json", '{ "server": "01-a/src/server.ts", "gone": "09-z/src/main.ts" }\n');
    write(root, "steps/01-a/src/server.ts", SERVER);
    write(root, "steps/01-a/src/framing.ts", FRAMING);
    const { inputs } = testInputs(path.join(root, "steps/02-b"), "src/roles.test.ts", { root, read: contentReader() });
    expect([...inputs.keys()].sort()).toEqual([
      "/steps/01-a/src/framing.ts",
      "/steps/01-a/src/server.ts",
      "/steps/09-z/src/main.ts",
      "/steps/roles.json",
      "/vitest.config.ts",
      "package.json",
      "src/roles.test.ts",
      "tsconfig.json",
    ]);
    expect(inputs.get("/steps/09-z/src/main.ts")).toBe(null);
  });

  it("tells a file no longer reached from one that changed", () => {
    expect(
      difference(
        new Map([
          ["a", "1"],
          ["b", "2"],
        ]),
        new Map([["a", "1"]]),
      ),
    ).toBe("b no longer reached");
    expect(difference(new Map([["a", "1"]]), new Map([["a", "2"]]))).toBe("a changed");
    expect(difference(new Map([["a", "1"]]), new Map([["a", "1"]]))).toBe(undefined);
  });
});

describe("vitestFilters", () => {
  // Vitest's own matching decides what runs, so ask vitest: a filter for 01-x must not pick 11-x or xa.test.mjs,
  // and the always-run folders must bring their top-level tests too (a relative "scripts/" filter would not).
  it("selects exactly the chosen step test files and every test of the tooling folders", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "select-vitest-"));
    roots.push(root);
    const projects = '["steps/[0-9][0-9]-*", "steps/runner", "scripts"]';
    write(root, "vitest.config.mjs", `export default { test: { projects: ${projects} } };\n`);
    const tests = ["steps/01-x/src/a.test.mjs", "steps/01-x/src/xa.test.mjs", "steps/11-x/src/a.test.mjs"];
    const tooling = ["scripts/top.test.mjs", "scripts/sub/deep.test.mjs", "steps/runner/run.test.mjs"];
    for (const rel of [...tests, ...tooling]) write(root, rel, 'import { it } from "vitest";\nit("runs", () => {});\n');
    const filters = vitestFilters({ run: [{ file: "steps/01-x/src/a.test.mjs" }] }, root);
    // --json last: followed by anything, it takes that as the file to write to.
    const listed = spawnSync(VITEST, ["list", ...filters, "--filesOnly", "--json"], { cwd: root, encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    const files = JSON.parse(listed.stdout).map(({ file }) => path.relative(root, file));
    expect(files.sort()).toEqual(["steps/01-x/src/a.test.mjs", ...tooling].sort());
  }, 30_000);
});
