// --list under the parts, the first step of a part in --diff, restored files in --diff and --stat, and --map: the
// runner run as a learner runs it, on fixture steps, judged by its exact output.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test, vi } from "vitest";
import { fixtureSteps, removeFixtures, run } from "./test/helpers.mjs";
import { PARTS, PARTS_DIFF, PARTS_LIST, PARTS_MAP, PARTS_ROLES, PARTS_STAT } from "./test/parts-fixture.mjs";

afterAll(removeFixtures);
vi.setConfig({ testTimeout: 30_000 });

function partsDir() {
  const stepsDir = fixtureSteps(PARTS);
  writeFileSync(join(stepsDir, "roles.json"), PARTS_ROLES);
  return stepsDir;
}

describe("the parts", () => {
  test("--list shows each part as a heading with its steps under it", async () => {
    const stepsDir = partsDir();
    expect(await run(["--list"], { stepsDir })).toEqual({ status: 0, stdout: PARTS_LIST, stderr: "" });
    expect((await run([], { stepsDir })).stdout).toBe(PARTS_LIST);
  });

  test("the first step of a part says so first in --diff and --stat; a restored file is one line", async () => {
    const stepsDir = partsDir();
    expect(await run(["3", "--diff"], { stepsDir })).toEqual({ status: 0, stdout: PARTS_DIFF, stderr: "" });
    expect((await run(["3", "--stat"], { stepsDir })).stdout).toBe(PARTS_STAT);
  });

  test("a step inside its part has no opening line", async () => {
    const stepsDir = partsDir();
    const { stdout } = await run(["4", "--diff"], { stepsDir });
    expect(stdout.split("\n")[0]).toBe("removed src/bar.ts (3 lines)");
    expect(stdout).not.toContain("opens the part");
  });
});

describe("--map", () => {
  test("lists each file with its state, what lesson.json gives, and its header's first line", async () => {
    const stepsDir = partsDir();
    expect(await run(["3", "--map"], { stepsDir })).toEqual({ status: 0, stdout: PARTS_MAP, stderr: "" });
  });

  test("the first step's files are all new", async () => {
    const { stdout } = await run(["1", "--map"], { stepsDir: partsDir() });
    expect(
      stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(["new", "new", "new", "new", "new"]);
  });

  test("is in --help, and combines with no other option", async () => {
    expect((await run(["--help"])).stdout).toContain("node steps/run.mjs N --map ");
    const both = await run(["3", "--map", "--diff"], { stepsDir: partsDir() });
    expect([both.status, both.stderr.split("\n")[0]]).toEqual([2, "--map cannot be combined with --diff."]);
  });
});
