// Tests for the exercise commands (--exercise, --reset, --check, --hint, --solution, --progress), run as a learner runs
// them, on a fixture pair of steps with a chapter and a record. Real steps are covered by check:exercises.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, test, vi } from "vitest";
import { isAlive, processTree } from "./shared/processes.mjs";
import { REPO_ROOT as repoRoot } from "./shared/repo.mjs";
import { exerciseFixture, REFERENCE, TESTS } from "./test/exercise-fixture.mjs";
import { FIXTURE_PREFIX, fixtureSteps, removeFixtures, run, start } from "./test/helpers.mjs";

afterAll(removeFixtures);
// Each test runs the runner, and a check runs tsc and vitest: on a loaded machine that can take seconds.
vi.setConfig({ testTimeout: 60_000 });

/** A fresh fixture repository, and the runner started against it with the hang bound at 2 s. */
function fixture() {
  const root = fixtureSteps(exerciseFixture(repoRoot, join(repoRoot, "steps", "runner", `${FIXTURE_PREFIX}x`)));
  const exercises = join(root, "exercises");
  const env = { LEARN_MCP_EXERCISES_DIR: exercises, LEARN_MCP_TEST_TIMEOUT_MS: "2000" };
  const options = { stepsDir: join(root, "steps"), env };
  const folder = join(exercises, "02-more");
  const shownFolder = folder.slice(repoRoot.length + 1);
  return {
    exercises,
    folder,
    shownFolder,
    runner: (...args) => run(args, options),
    started: (...args) => start(args, options),
    write: (rel, text) => writeFileSync(join(folder, rel), text),
    read: (rel) => readFileSync(join(folder, rel), "utf8"),
    state: () => JSON.parse(readFileSync(join(exercises, ".state", "02-more.json"), "utf8")),
    leftovers: () => readdirSync(exercises).filter((name) => name.startsWith(".check-") || name.startsWith(".new-")),
  };
}

// One fixture for the file: the tests run in order, each writing the learner's files it needs, since making an
// exercise type-checks it and takes a few seconds.
const fx = fixture();
const referenceMain = () => readFileSync(join(fx.folder, "..", "..", "steps", "02-more", "src", "main.ts"), "utf8");

/** The learner's sum.ts with `times` written one way and everything else from the reference. */
const withTimes = (body) => REFERENCE.replace("return a * b;", body);

describe("misuse, before any exercise", () => {
  test("no such step, step 01, no folder yet and mixed flags exit 2 with the usage", async () => {
    const cases = [
      [["1", "--exercise"], "Step 01 has no exercise"],
      [["9", "--exercise"], "Unknown step 9"],
      [["2", "--check"], "There is no exercise for step 02 yet"],
      [["2", "--hint"], "node steps/run.mjs 2 --exercise"],
      [["2", "--solution"], "There is no exercise for step 02 yet"],
      [["2", "--check", "--hint"], "--check and --hint are separate commands"],
      [["2", "--watch"], "--watch goes with --check"],
      [["2", "--show"], "--show goes with --hint"],
      [["2", "--exercise", "--diff"], "--exercise cannot be combined with --diff"],
      [["--progress", "2"], "--progress takes no step number"],
      [["--check"], "--check needs a step number"],
    ];
    for (const [args, message] of cases) {
      const result = await fx.runner(...args);
      expect([args, result.status, result.stderr.split("\n")[0]]).toEqual([args, 2, expect.stringContaining(message)]);
      expect(result.stderr).toContain("node steps/run.mjs N --check --watch");
    }
    expect(existsSync(fx.exercises)).toBe(false);
    expect((await fx.runner("--progress")).stdout).toBe("02  not started    Fixture 02-more\n");
  });
});

describe("--exercise and --reset", () => {
  test("--exercise writes the folder and its state, lists the blanks in chapter order, never overwrites", async () => {
    const made = await fx.runner("2", "--exercise");
    expect(made.status).toBe(0);
    const listed = made.stdout.split("\n").filter((line) => line.startsWith("  src/"));
    expect(listed).toEqual([
      "  src/sum.ts:15  times — Multiplies two numbers.",
      "  src/sum.ts:8  total — Adds every number of a list.",
      "  src/sum.ts:21  later — Resolves with the number it is given.",
    ]);
    expect(made.stdout).toContain(`Step 02's exercise is in ${fx.shownFolder}/.`);
    expect(made.stdout).toContain("node steps/run.mjs 2 --check");
    expect(fx.read("src/sum.ts")).toContain(
      'throw new Error("times: not written yet (step 02) — Multiplies two numbers.");',
    );
    expect(fx.state()).toMatchObject({ step: "02-more", stepDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(fx.state().blanks.map((blank) => blank.id)).toEqual([
      "src/sum.ts#total",
      "src/sum.ts#times",
      "src/sum.ts#later",
    ]);
    fx.write("src/sum.ts", "my work\n");
    const again = await fx.runner("2", "--exercise");
    expect(again.status).toBe(1);
    expect(again.stderr).toContain("already exists");
    expect(again.stderr).toContain(`node steps/run.mjs 2 --reset (moves it aside to ${fx.shownFolder}.old-1/ first)`);
    expect(fx.read("src/sum.ts")).toBe("my work\n");
  });

  test("--reset moves the folder aside to the first free .old-K and writes it anew", async () => {
    mkdirSync(`${fx.folder}.old-1`);
    const reset = await fx.runner("2", "--reset");
    expect(reset.status).toBe(0);
    expect(reset.stdout).toContain(`(your earlier folder is now ${fx.shownFolder}.old-2/)`);
    expect(readFileSync(`${fx.folder}.old-2/src/sum.ts`, "utf8")).toBe("my work\n");
    expect(fx.read("src/sum.ts")).toContain("not written yet");
    expect(fx.leftovers()).toEqual([]);
  });

  test("--exercise --from-mine after the first step starts from the reference and says so", async () => {
    fx.write("src/sum.ts", "my second try\n");
    const mine = await fx.runner("2", "--reset", "--from-mine");
    expect([mine.status, mine.stdout.split("\n")[0]]).toEqual([
      0,
      "Step 01 has no exercise of yours to start from: step 02 starts from the reference.",
    ]);
    expect(readFileSync(`${fx.folder}.old-3/src/sum.ts`, "utf8")).toBe("my second try\n");
    expect(fx.read("src/sum.ts")).toContain("not written yet");
    expect((await fx.runner("2", "--check", "--from-mine")).status).toBe(2);
  });
});

describe("--check", () => {
  test("fails blank by blank with one summary line, then passes and runs the demo as the chapter shows", async () => {
    const first = await fx.runner("2", "--check");
    expect(first.status).toBe(1);
    expect(first.stdout.split("\n").slice(1, 5)).toEqual([
      "  FAIL  src/sum.ts:15 times: 1 of 1 test fail (still a blank)",
      "  FAIL  src/sum.ts:8 total: 1 of 1 test fail (still a blank)",
      "  ?     src/sum.ts:21 later: tests not recorded (still a blank)",
      "1 of 4 tests pass; next: src/sum.test.ts > times multiplies — src/sum.ts times",
    ]);
    expect(fx.state().lastCheck).toMatchObject({ tests: "fail" });
    fx.write("src/sum.ts", REFERENCE);
    const passed = await fx.runner("2", "--check");
    expect(passed.stdout).toContain("  pass  src/sum.ts:15 times: its test passes\n");
    expect(passed.stdout).toContain("\n4 of 4 tests pass.\nYour step 02 runs as the chapter shows.\n");
    expect(passed.status).toBe(0);
    expect(fx.state().lastCheck).toMatchObject({ tests: "pass", demo: "match" });
    expect(fx.leftovers()).toEqual([]);
  });

  test("--progress reads the last check, and checks again only a folder that changed", async () => {
    expect((await fx.runner("--progress")).stdout).toBe("02  demo matching  Fixture 02-more\n");
    fx.write("src/sum.ts", withTimes("return a + b;"));
    expect((await fx.runner("--progress")).stdout).toBe("02  started        Fixture 02-more (checked now)\n");
  });

  test("runs step 02's tests, not the learner's copies, says so, flags a changed step, a differing demo", async () => {
    fx.write("src/sum.ts", REFERENCE);
    fx.write("src/sum.test.ts", 'import { test } from "vitest";\ntest("mine", () => {});\n');
    fx.write("src/main.ts", 'console.log("total 6, times 7");\n');
    writeFileSync(
      join(fx.exercises, ".state", "02-more.json"),
      JSON.stringify({ ...fx.state(), stepDigest: "0".repeat(64) }),
    );
    const result = await fx.runner("2", "--check");
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      "Your copies of src/sum.test.ts differ from step 02's; the check runs step 02's tests.",
    );
    expect(result.stdout).toContain("Step 02 has changed since this exercise was made");
    expect(result.stdout).toContain("node steps/run.mjs 2 --reset");
    expect(result.stdout).toContain("4 of 4 tests pass.");
    expect(result.stdout).toContain(
      "first difference at line 1 of the output:\n    the chapter:\n      total 6, times 6\n    yours:\n      total 6, times 7\n",
    );
    expect(fx.read("src/sum.test.ts")).toContain('test("mine"');
    fx.write("src/sum.test.ts", TESTS);
    fx.write("src/main.ts", referenceMain());
  });

  test("a hang, a type error and a syntax error are each one message naming file and line, with no stack", async () => {
    fx.write("src/sum.ts", withTimes('return "six";').replace("return n;", "return new Promise(() => {});"));
    const hung = await fx.runner("2", "--check");
    expect(hung.stdout).toContain(
      '  src/sum.test.ts:7 "later resolves" did not finish within 2 s: something it waits for never comes\n',
    );
    expect(hung.stdout).toContain(
      "Type errors (tsc):\n  src/sum.ts:16: Type 'string' is not assignable to type 'number'.\n",
    );
    expect(hung.stdout).not.toMatch(/^\s+at /m);
    fx.write("src/sum.ts", `${REFERENCE}throw new Error("thrown on import");\n`);
    const unloaded = await fx.runner("2", "--check");
    expect(unloaded.stdout).toContain("  ?     src/sum.ts:15 times: its test did not run\n");
    expect(unloaded.stdout).toContain("src/sum.test.ts could not run its tests:\n  Error: thrown on import\n");
    expect(unloaded.stdout).toContain("0 of 0 tests pass; src/sum.test.ts could not run: see above.\n");
    fx.write("src/sum.ts", withTimes("return a * ;"));
    const broken = await fx.runner("2", "--check");
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain("Syntax errors: the tests did not run.\n  src/sum.ts:16: Expression expected.\n");
    expect(fx.leftovers()).toEqual([]);
  });

  test("SIGINT stops the tests and everything they started, and removes the temporary copy", async () => {
    fx.write("src/sum.ts", REFERENCE.replace("return n;", "return new Promise(() => {});"));
    const child = fx.started("2", "--check");
    while (fx.leftovers().length === 0 || processTree(child.pid).length < 3) await sleep(50);
    const tree = processTree(child.pid);
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    const deadline = Date.now() + 5000;
    while (tree.some(isAlive) && Date.now() < deadline) await sleep(50);
    expect(tree.filter(isAlive)).toEqual([]);
    expect(fx.leftovers()).toEqual([]);
  });
});

describe("--check --watch", () => {
  test("checks again when a file under src/ changes, until a signal stops it with everything it started", async () => {
    fx.write("src/sum.ts", withTimes("return a + b;"));
    const child = fx.started("2", "--check", "--watch");
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    const summaries = () => stdout.split("\n").filter((line) => / of \d+ tests pass/.test(line));
    while (summaries().length < 1 || !stdout.endsWith("Ctrl-C to stop.\n")) await sleep(50);
    expect(summaries()).toEqual(["3 of 4 tests pass; next: src/sum.test.ts > times multiplies — src/sum.ts times"]);
    fx.write("src/sum.ts", REFERENCE);
    while (summaries().length < 2 || !stdout.endsWith("Ctrl-C to stop.\n")) await sleep(50);
    expect(summaries()[1]).toBe("4 of 4 tests pass.");
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    expect(fx.leftovers()).toEqual([]);
  });
});

describe("--hint and --solution", () => {
  test("--hint names the section and the failing assertion; --show prints step 02's text of the blank", async () => {
    fx.write("src/sum.ts", withTimes('throw new Error("times: not written yet (step 02) — Multiplies two numbers.");'));
    const hint = await fx.runner("2", "--hint");
    expect(hint.status).toBe(0);
    expect(hint.stdout).toContain("Next: src/sum.ts:15 times — Multiplies two numbers.\n");
    expect(hint.stdout).toContain('docs/02-more.md, "Multiply" (line 7)\n');
    expect(hint.stdout).toContain("  Failing: src/sum.test.ts > times multiplies (src/sum.test.ts:6)\n");
    expect(hint.stdout).toContain("    Error: times: not written yet (step 02) — Multiplies two numbers.\n");
    const show = await fx.runner("2", "--hint", "--show");
    expect(show.stdout).toBe(
      "steps/02-more/src/sum.ts:14 times, as step 02 has it:\n\n/** Multiplies two numbers. */\nexport function times(a: number, b: number): number {\n  return a * b;\n}\n",
    );
  });

  test("--solution is the diff from the folder to step 02, tests only where they differ", async () => {
    fx.write("src/sum.ts", withTimes("return a + b;"));
    const solution = await fx.runner("2", "--solution");
    expect(solution.status).toBe(0);
    expect(solution.stdout).toBe(
      `--- ${fx.shownFolder}/src/sum.ts\n+++ steps/02-more/src/sum.ts\n@@ -13,7 +13,7 @@\n //#region times\n /** Multiplies two numbers. */\n export function times(a: number, b: number): number {\n-  return a + b;\n+  return a * b;\n }\n //#endregion\n \n`,
    );
    fx.write("src/sum.test.ts", TESTS.replace("add adds", "add sums"));
    expect((await fx.runner("2", "--solution")).stdout).toContain("+++ steps/02-more/src/sum.test.ts\n");
    fx.write("src/sum.ts", REFERENCE);
    fx.write("src/sum.test.ts", TESTS);
    expect((await fx.runner("2", "--solution")).stdout).toBe(
      `${fx.shownFolder}/ is step 02 already: no line differs.\n`,
    );
  });
});
