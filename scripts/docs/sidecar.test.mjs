// docs/.generated.json end to end on throwaway repositories (--root): what is accepted unrun, and what runs again.
// Commands append to a counter outside the repository, so each test can see how often they really ran.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const DOCS = path.join(import.meta.dirname, "docs.mjs");
// Each test starts docs.mjs up to five times; on a busy two-core machine that outlasts vitest's default 5 s.
const SLOW = 30_000;
const dirs = [];

function tempDir() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "docs-sidecar-test-"));
  dirs.push(dir);
  return dir;
}

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

const read = (root, rel) => readFileSync(path.join(root, rel), "utf8");
const block = (command) => `<!-- gen exec ${command} -->\n<!-- /gen -->\n`;

// A repository with one chapter of exec blocks, and a counter file outside it that each command appends `name` to.
function makeRoot(...blocks) {
  const root = tempDir();
  const counter = path.join(tempDir(), "ran");
  writeFileSync(counter, "");
  const chapter = blocks.map(([name, command]) => block(`echo ${name} >> ${counter}; ${command}`)).join("");
  write(root, "docs/01-x.md", `# X\n${chapter}`);
  return { root, ran: () => readFileSync(counter, "utf8").split("\n").filter(Boolean) };
}

function docs(root, ...args) {
  const result = spawnSync(process.execPath, [DOCS, ...args, "--root", root], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

const sidecar = (root) => JSON.parse(read(root, "docs/.generated.json")).blocks;

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("docs:check with docs/.generated.json", { timeout: SLOW }, () => {
  it("accepts a block whose inputs did not change without running it", () => {
    // `date +%N` prints something new on every run: only a block that is not run can still pass.
    const { root, ran } = makeRoot(["clock", "date +%N"]);
    expect(docs(root, "sync").status).toBe(0);
    expect(ran()).toEqual(["clock"]);
    expect(Object.keys(sidecar(root))).toEqual([expect.stringMatching(/^exec echo clock >> .*; date \+%N$/)]);

    const check = docs(root, "check");
    expect(check.output).toContain("docs: 1 blocks in 1 files, 0 commands run, 1 accepted unchanged, all up to date");
    expect(check.status).toBe(0);
    expect(ran()).toEqual(["clock"]);

    const forced = docs(root, "check", "--force");
    expect(forced.output).toContain("1 commands run, 0 accepted unchanged");
    expect(forced.output).toContain("1 stale");
    expect(ran()).toEqual(["clock", "clock"]);
  });

  it("runs a block again when a file its command names, or one that file imports, changes", () => {
    const { root, ran } = makeRoot(["say", "node tools/say.mjs"]);
    write(root, "tools/say.mjs", 'import { word } from "./word.mjs";\nconsole.log(word);\n');
    write(root, "tools/word.mjs", 'export const word = "hello";\n');
    expect(docs(root, "sync").status).toBe(0);

    write(root, "tools/word.mjs", 'export const word = "goodbye";\n');
    const imported = docs(root, "check");
    expect(imported.status).toBe(1);
    expect(imported.output).toContain("+goodbye");
    expect(imported.output).toContain("1 commands run, 0 accepted unchanged");
    expect(ran()).toEqual(["say", "say"]);

    expect(docs(root, "sync").status).toBe(0);
    write(
      root,
      "tools/say.mjs",
      'import { word } from "./word.mjs";\n// A comment changes no output.\nconsole.log(word);\n',
    );
    const named = docs(root, "check");
    expect(named.status).toBe(0);
    expect(named.output).toContain("1 commands run, 0 accepted unchanged, 1 not as recorded in docs/.generated.json");
    expect(ran()).toEqual(["say", "say", "say", "say"]);
  });

  it("keeps accepting a block when a file its command does not name changes", () => {
    const { root, ran } = makeRoot(["say", "node tools/say.mjs"]);
    write(root, "tools/say.mjs", 'console.log("hello");\n');
    write(root, "tools/other.mjs", 'console.log("other");\n');
    expect(docs(root, "sync").status).toBe(0);
    write(root, "tools/other.mjs", 'console.log("changed");\n');
    expect(docs(root, "check").output).toContain("0 commands run, 1 accepted unchanged");
    expect(ran()).toEqual(["say"]);
  });

  it("catches a body edited by hand although the inputs did not change", () => {
    const { root, ran } = makeRoot(["echo", "echo generated"]);
    expect(docs(root, "sync").status).toBe(0);
    write(root, "docs/01-x.md", read(root, "docs/01-x.md").replace("\ngenerated\n", "\nedited by hand\n"));
    const { status, output } = docs(root, "check");
    expect(status).toBe(1);
    expect(output).toContain("-edited by hand");
    expect(output).toContain("+generated");
    expect(ran()).toEqual(["echo", "echo"]);
  });

  it("runs a block that the sidecar does not record", () => {
    const { root, ran } = makeRoot(["echo", "echo generated"]);
    expect(docs(root, "sync").status).toBe(0);
    rmSync(path.join(root, "docs/.generated.json"));
    const { status, output } = docs(root, "check");
    expect(status).toBe(0);
    expect(output).toContain("1 commands run, 0 accepted unchanged, 1 not as recorded in docs/.generated.json");
    expect(ran()).toEqual(["echo", "echo"]);
    expect(existsSync(path.join(root, "docs/.generated.json"))).toBe(false);
  });

  it("always runs a command that changes directory, since its paths cannot be read", () => {
    const { root, ran } = makeRoot(["cd", "cd docs && ls"]);
    expect(docs(root, "sync").status).toBe(0);
    expect(docs(root, "check").output).toContain("1 commands run, 0 accepted unchanged");
    expect(ran()).toEqual(["cd", "cd"]);
  });
});

describe("Node versions in docs/.generated.json", { timeout: SLOW }, () => {
  const major = Number(process.versions.node.split(".")[0]);
  // Says the record's blocks were printed under Node 18 only, as a record made under another Node would.
  function recordedUnderOtherNode(root) {
    const record = JSON.parse(read(root, "docs/.generated.json"));
    for (const entry of Object.values(record.blocks)) entry.nodes = [18];
    write(root, "docs/.generated.json", JSON.stringify(record));
  }

  it("records the Node major that printed a block", () => {
    const { root } = makeRoot(["echo", "echo generated"]);
    expect(docs(root, "sync").status).toBe(0);
    expect(Object.values(sidecar(root)).map((entry) => entry.nodes)).toEqual([[major]]);
  });

  it("runs a block recorded under other Node majors only, and sync adds this one when it prints the same", () => {
    const { root, ran } = makeRoot(["echo", "echo generated"]);
    expect(docs(root, "sync").status).toBe(0);
    recordedUnderOtherNode(root);

    const check = docs(root, "check");
    expect(check.status).toBe(0);
    expect(check.output).toContain(
      `1 commands run, 0 accepted unchanged, 1 run because docs/.generated.json has them from other Node versions, ` +
        `not Node ${major}`,
    );
    expect(ran()).toEqual(["echo", "echo"]);

    expect(docs(root, "sync").status).toBe(0);
    expect(Object.values(sidecar(root)).map((entry) => entry.nodes)).toEqual([[18, major]]);
    expect(docs(root, "check").output).toContain("0 commands run, 1 accepted unchanged, all up to date");
    expect(ran()).toEqual(["echo", "echo", "echo"]);
  });

  it("fails a block that prints something else under this Node, and sync keeps only this Node's major", () => {
    const { root } = makeRoot(["clock", "date +%N"]);
    expect(docs(root, "sync").status).toBe(0);
    recordedUnderOtherNode(root);

    const check = docs(root, "check");
    expect(check.status).toBe(1);
    expect(check.output).toContain("1 stale");

    expect(docs(root, "sync").status).toBe(0);
    expect(Object.values(sidecar(root)).map((entry) => entry.nodes)).toEqual([[major]]);
  });

  it("runs every block of a record written before it kept Node majors", () => {
    const { root, ran } = makeRoot(["echo", "echo generated"]);
    expect(docs(root, "sync").status).toBe(0);
    const record = JSON.parse(read(root, "docs/.generated.json"));
    for (const entry of Object.values(record.blocks)) delete entry.nodes;
    write(root, "docs/.generated.json", JSON.stringify(record));
    expect(docs(root, "check").output).toContain("1 commands run, 0 accepted unchanged");
    expect(ran()).toEqual(["echo", "echo"]);
  });
});

describe("docs:sync with docs/.generated.json", { timeout: SLOW }, () => {
  it("skips unchanged blocks, and with --force reruns every block and records only those that exist", () => {
    const { root, ran } = makeRoot(["clock", "date +%N"], ["other", "echo other"]);
    expect(docs(root, "sync").status).toBe(0);
    const first = read(root, "docs/01-x.md");
    expect(Object.keys(sidecar(root))).toHaveLength(2);

    expect(docs(root, "sync").output).toContain("0 commands run, 2 accepted unchanged, 0 rewritten");
    expect(read(root, "docs/01-x.md")).toBe(first);

    const [heading, clock] = first.split(/(?=<!-- gen exec echo other)/)[0].split(/(?=<!-- gen)/);
    write(root, "docs/01-x.md", heading + clock);
    const forced = docs(root, "sync", "--force");
    expect(forced.output).toContain("1 commands run, 0 accepted unchanged, 1 rewritten");
    expect(read(root, "docs/01-x.md")).not.toBe(heading + clock);
    expect(Object.keys(sidecar(root))).toEqual([expect.stringContaining("date +%N")]);
    // The first sync runs both blocks at once, in either order; --force then reruns only the clock.
    expect(ran().slice(0, 2).sort()).toEqual(["clock", "other"]);
    expect(ran().slice(2)).toEqual(["clock"]);
  });
});

describe("demo times in docs/.generated.json", { timeout: SLOW }, () => {
  // A step the inputs reader can find, and a runner that answers at once: sync times it, check warns from the record.
  function demoRoot() {
    const root = tempDir();
    write(root, "steps/01-x/lesson.json", '{"title":"x","changes":[]}\n');
    write(root, "steps/01-x/src/main.ts", "export {};\n");
    write(root, "steps/run.mjs", 'console.log("demo of step " + process.argv[2]);\n');
    write(root, "docs/01-x.md", "# X\n<!-- gen run 1 -->\n<!-- /gen -->\n");
    return root;
  }

  it("are recorded by sync and warned about by check when over a target", () => {
    const root = demoRoot();
    expect(docs(root, "sync").status).toBe(0);
    const { timing } = sidecar(root)["run 1"];
    expect(timing.bareMs).toBeGreaterThan(0);
    expect(timing.firstByte).toBeGreaterThan(0);
    expect(timing.end).toBeGreaterThanOrEqual(timing.firstByte);

    const record = JSON.parse(read(root, "docs/.generated.json"));
    record.blocks["run 1"].timing = { firstByte: 9, end: 20, bareMs: 500 };
    write(root, "docs/.generated.json", JSON.stringify(record));
    const check = docs(root, "check");
    expect(check.status).toBe(0);
    expect(check.output).toContain("warning: demo of step 1: first byte at 9x a bare start (target 2x), end at 20x");
    expect(check.output).toContain("0 commands run, 1 accepted unchanged");
  });

  it("stay those of the sync that recorded the body, under any Node; --force or a new body measures again", () => {
    const root = demoRoot();
    expect(docs(root, "sync").status).toBe(0);
    const planted = { firstByte: 1.5, end: 4, bareMs: 1 }; // no real start takes 1 ms
    const plant = (nodes) => {
      const record = JSON.parse(read(root, "docs/.generated.json"));
      Object.assign(record.blocks["run 1"], { nodes, timing: planted });
      write(root, "docs/.generated.json", JSON.stringify(record));
    };
    plant([18]);
    expect(docs(root, "sync").status).toBe(0);
    const major = Number(process.versions.node.split(".")[0]);
    expect(sidecar(root)["run 1"]).toMatchObject({ nodes: [18, major], timing: planted });
    expect(docs(root, "sync", "--force").status).toBe(0); // measures again
    expect(sidecar(root)["run 1"].timing.bareMs).not.toBe(planted.bareMs);

    plant([major]);
    write(root, "steps/run.mjs", 'console.log("another demo of step " + process.argv[2]);\n');
    expect(docs(root, "sync").status).toBe(0);
    expect(sidecar(root)["run 1"].nodes).toEqual([major]);
    expect(sidecar(root)["run 1"].timing.bareMs).not.toBe(planted.bareMs);
  });
});
