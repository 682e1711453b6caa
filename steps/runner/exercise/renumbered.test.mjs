// Exercise folders follow their step by slug when an inserted step renumbers it; state files go with them.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

const exercises = mkdtempSync(path.join(os.tmpdir(), "renumbered-"));
process.env.LEARN_MCP_EXERCISES_DIR = exercises;
const { adoptRenumbered } = await import("./state.mjs");
const { exerciseProblem } = await import("./commands.mjs");

const step = (folder) => ({ folder, id: folder.slice(0, 2), number: Number(folder.slice(0, 2)) });
// After `step:new inserted --after 1`: more was 02 and is 03 now.
const STEPS = [step("01-first"), step("02-inserted"), step("03-more")];

function plant(folder, state) {
  mkdirSync(path.join(exercises, folder, "src"), { recursive: true });
  writeFileSync(path.join(exercises, folder, "src/sum.ts"), `// mine, in ${folder}\n`);
  if (state === undefined) return;
  mkdirSync(path.join(exercises, ".state"), { recursive: true });
  writeFileSync(path.join(exercises, ".state", `${folder}.json`), state);
}

beforeEach(() => {
  rmSync(exercises, { recursive: true, force: true });
  mkdirSync(exercises);
});
afterAll(() => rmSync(exercises, { recursive: true, force: true }));

describe("adoptRenumbered", () => {
  it("moves a folder whose number changed but whose slug matches, with its state file, and says so", () => {
    plant("02-more", '{"blanks":[]}\n');
    const moves = adoptRenumbered(STEPS);
    expect(moves).toEqual([expect.stringMatching(/^Renamed .*02-more\/ to .*03-more\/: step more is 03 now\.$/)]);
    expect(readFileSync(path.join(exercises, "03-more/src/sum.ts"), "utf8")).toBe("// mine, in 02-more\n");
    expect(existsSync(path.join(exercises, "02-more"))).toBe(false);
    expect(readFileSync(path.join(exercises, ".state/03-more.json"), "utf8")).toBe('{"blanks":[]}\n');
  });

  it("leaves alone a folder of a current step, one of another slug, and a slug found twice", () => {
    plant("02-inserted");
    plant("04-gone");
    plant("05-more");
    plant("06-more");
    expect(adoptRenumbered(STEPS)).toEqual([]);
    for (const folder of ["02-inserted", "04-gone", "05-more", "06-more"]) {
      expect(existsSync(path.join(exercises, folder)), folder).toBe(true);
    }
  });

  it("never overwrites the folder a step already has", () => {
    plant("02-more");
    plant("03-more");
    expect(adoptRenumbered(STEPS)).toEqual([]);
    expect(readFileSync(path.join(exercises, "03-more/src/sum.ts"), "utf8")).toBe("// mine, in 03-more\n");
  });
});

describe("exerciseProblem", () => {
  it("finds the learner's folder under the step's old number instead of asking for a new exercise", () => {
    plant("02-more");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(exerciseProblem("--check", STEPS, STEPS[2])).toBeUndefined();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("03-more/: step more is 03 now"));
    errors.mockRestore();
    expect(existsSync(path.join(exercises, "03-more/src/sum.ts"))).toBe(true);
  });
});
