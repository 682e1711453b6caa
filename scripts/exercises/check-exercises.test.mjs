// check-exercises.mjs end to end on a synthetic pair of steps (LEARN_MCP_STEPS_DIR), with the hang bound at 2 s.
// The tests share one folder and run in order: a covered step is recorded, then taken from the record, then made stale.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listSteps, REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const CHECK = path.join(REPO_ROOT, "scripts", "checks", "check-exercises.mjs");
const root = mkdtempSync(path.join(os.tmpdir(), "check-exercises-test-"));
const stepsDir = path.join(root, "steps");
const record = path.join(root, "exercises.json");
const tmp = path.join(root, "tmp"); // the checker's os.tmpdir(): left empty, whatever happens

function write(rel, text) {
  mkdirSync(path.dirname(path.join(stepsDir, rel)), { recursive: true });
  writeFileSync(path.join(stepsDir, rel), text);
}

// ready() is noticed only by a test that waits for it: left blank it throws, the test keeps waiting, the bound ends it.
const MATH = `/** The sum of a and b. */
export function add(a: number, b: number): number {
  return a + b;
}

/** Whether the result can be read. */
export function ready(): boolean {
  return true;
}
`;
// The last test starts a process in a group of its own and leaves it, with a temporary folder: the checker must find
// the process and kill it, and keep the folder out of its own os.tmpdir().
const TEST = `import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "vitest";
import { add, ready } from "./math.ts";

test("add adds", () => {
  expect(add(1, 2)).toBe(3);
});

test("ready, waited for", async () => {
  for (;;) {
    try {
      if (ready()) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

test("leaves a process and a folder behind", () => {
  mkdtempSync(path.join(os.tmpdir(), "left-by-a-test-"));
  spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "stray"], { detached: true, stdio: "ignore" }).unref();
});
`;

const BASE = JSON.stringify(path.join(REPO_ROOT, "tsconfig.base.json"));
// Any step's installs do: the fixture needs vitest and @types/node.
const INSTALLS = path.join(listSteps(path.join(REPO_ROOT, "steps"))[1].dir, "node_modules");

function makeSteps() {
  write("roles.json", "{}\n");
  for (const folder of ["01-start", "02-math"]) {
    write(`${folder}/package.json`, `{ "name": "@fixture/${folder}", "type": "module" }\n`);
    write(`${folder}/lesson.json`, `{ "title": "${folder}" }\n`);
    write(`${folder}/tsconfig.json`, `{ "extends": ${BASE}, "include": ["src"] }\n`);
    symlinkSync(INSTALLS, path.join(stepsDir, folder, "node_modules"));
  }
  write("01-start/src/main.ts", 'console.log("start");\n');
  write("02-math/src/main.ts", 'console.log("start");\n');
  write("02-math/src/math.ts", MATH);
  write("02-math/src/math.test.ts", TEST);
}

const env = () => ({ ...process.env, LEARN_MCP_STEPS_DIR: stepsDir, TMPDIR: tmp });
const args = (...extra) => [CHECK, "--record", record, "--test-timeout", "2000", ...extra];

function check(...extra) {
  const result = spawnSync(process.execPath, args(...extra), { encoding: "utf8", env: env() });
  return { status: result.status, output: result.stdout + result.stderr };
}

const processes = () => spawnSync("ps", ["-A", "-o", "args="], { encoding: "utf8" }).stdout.split("\n");
const recorded = () => JSON.parse(readFileSync(record, "utf8"))["02-math"];

makeSteps();
mkdirSync(tmp);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("check-exercises.mjs", () => {
  it("passes a step whose every blank some test notices, ending a hanging test at the bound", () => {
    const { status, output } = check("--verbose");
    expect(output).toContain("02-math: 2 blanks, each noticed by a test");
    expect(status).toBe(0);
    expect(output).toMatch(/killed [1-9]\d* process\(es\) that outlived their test run/);
    expect(processes().filter((line) => line.includes("setInterval(() => {}, 1000) stray"))).toEqual([]);
    expect(recorded().blanks["src/math.ts#ready"].tests).toEqual(["src/math.test.ts > ready, waited for"]);
    expect(recorded().untouched.tests).toEqual(["src/math.test.ts > add adds"]);
    expect(output).toMatch(/src\/math.ts#ready: fail in [\d.]+ s, first failing .* \(timed out after 20\d\d ms\)/);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("takes a step whose inputs did not change from the record, whatever Node made it", () => {
    const { status, output } = check();
    expect(output).toContain("1 step(s), 1 taken from the record, 0 to check");
    expect(status).toBe(0);
    const text = readFileSync(record, "utf8");
    writeFileSync(record, text.replace(/"node": \d+/, '"node": 18'));
    const older = check();
    expect(older.output).toContain("the record was made under Node 18");
    expect(older.output).toContain("1 taken from the record, 0 to check");
    writeFileSync(record, text);
  });

  it("has no exercise for the first step", () => {
    const { status, output } = check("--step", "1");
    expect(output).toContain("step 01 has no exercise");
    expect(status).toBe(2);
  });

  it("re-runs a stale step and reports the blank no test notices", () => {
    const triple = "/** Three times x. */\nexport function triple(x: number): number {\n  return 3 * x;\n}\n";
    write("02-math/src/math.ts", `${MATH}\n${triple}`);
    const { status, output } = check();
    expect(output).toContain("0 taken from the record, 1 to check");
    expect(output).toContain(
      "02-math: src/math.ts#triple: no test fails with only this blank left (ran src/math.test.ts)",
    );
    expect(recorded().blanks["src/math.ts#triple"]).toEqual({ tests: [], ran: ["src/math.test.ts"] });
    expect(status).toBe(1);
    // Recorded, the gap fails every later run until a test is written, without running anything.
    const again = check();
    expect(again.output).toContain("1 taken from the record, 0 to check");
    expect(again.output).toContain("src/math.ts#triple: no test fails");
    expect(again.status).toBe(1);
  });

  it("leaves no process and no folder behind when interrupted", async () => {
    const child = spawn(process.execPath, args("--all"), { env: env(), stdio: ["ignore", "pipe", "pipe"] });
    const ours = () => processes().filter((line) => line.includes(tmp));
    while (!ours().some((line) => line.includes("vitest"))) await new Promise((resolve) => setTimeout(resolve, 50));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
    // SIGKILL is sent before the checker exits, but a killed process may take a moment to go on a loaded machine.
    for (let waited = 0; waited < 3000 && ours().length > 0; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ours()).toEqual([]);
  });
});
