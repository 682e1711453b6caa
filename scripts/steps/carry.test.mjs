// step:carry on a small git repository under the temporary folder: which later steps take the new copy, the patch, or
// nothing, and what it says about each.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const CARRY = path.join(import.meta.dirname, "carry.mjs");
const roots = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}
const read = (root, rel) => readFileSync(path.join(root, rel), "utf8");

function git(root, ...args) {
  const identity = ["-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"];
  const result = spawnSync("git", ["-C", root, ...identity, ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

// Ten numbered lines: far enough apart that a change to line 2 and one to line 9 do not touch each other's context.
const OLD = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join("\n") + "\n";
const NEW = OLD.replace("line 2\n", "line 2, fixed\n");
const FAR = OLD.replace("line 9\n", "line 9, this step's own\n");
const CLASH = OLD.replace("line 2\n", "line 2, this step's own\n");

/** A committed repository whose steps hold `copies` (folder → text of src/a.ts, or null for none). */
function makeRepo(copies) {
  const root = mkdtempSync(path.join(os.tmpdir(), "carry-test-"));
  roots.push(root);
  for (const [folder, text] of Object.entries(copies)) {
    write(root, `steps/${folder}/package.json`, `{\n  "name": "@learn-mcp/${folder}",\n  "private": true\n}\n`);
    if (text !== null) write(root, `steps/${folder}/src/a.ts`, text);
  }
  git(root, "init", "-q");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "steps");
  return root;
}

function carry(root, ...args) {
  const result = spawnSync(process.execPath, [CARRY, ...args, "--root", root], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("step:carry", () => {
  it("replaces identical copies, patches one whose change lies elsewhere, and names the rest", () => {
    const copies = { "01-a": OLD, "02-b": OLD, "03-c": FAR, "04-d": CLASH, "05-e": null, "06-f": OLD };
    const root = makeRepo(copies);
    write(root, "steps/01-a/src/a.ts", NEW);
    const { status, output } = carry(root, "1", "src/a.ts");
    expect(output).toContain("step:carry: steps/01-a/src/a.ts, its copy at HEAD -> its working copy");
    expect(output).toContain("steps/02-b: was identical to the old copy: now the new copy");
    expect(output).toContain("steps/03-c: differed: the change applied as a patch");
    expect(output).toContain("steps/04-d: differs and the change does not apply: left alone, carry it by hand");
    expect(output).toContain("steps/05-e: has no copy: left alone");
    expect(output).toContain("steps/06-f: was identical to the old copy: now the new copy");
    expect(output).toContain("1 step(s) left to carry by hand");
    expect(status).toBe(1);
    expect(read(root, "steps/02-b/src/a.ts")).toBe(NEW);
    expect(read(root, "steps/03-c/src/a.ts")).toBe(FAR.replace("line 2\n", "line 2, fixed\n"));
    expect(read(root, "steps/04-d/src/a.ts")).toBe(CLASH);
    expect(existsSync(path.join(root, "steps/05-e/src/a.ts"))).toBe(false);
    expect(read(root, "steps/06-f/src/a.ts")).toBe(NEW);
    // Run again: every copy it wrote already has the change; the one left alone is still named.
    const again = carry(root, "01", "steps/01-a/src/a.ts").output;
    expect(again).toContain("steps/02-b: already has the new copy");
    expect(again).toContain("steps/04-d: differs and the change does not apply");
  });

  it("carries a removal and a package.json change, keeping each step's own name line", () => {
    const root = makeRepo({ "01-a": OLD, "02-b": OLD, "03-c": FAR });
    unlinkSync(path.join(root, "steps/01-a/src/a.ts"));
    const removal = carry(root, "1", "src/a.ts");
    expect(removal.output).toContain("steps/02-b: was identical to the old copy: now the new copy");
    expect(removal.output).toContain("steps/03-c: differs and the change does not apply");
    expect(existsSync(path.join(root, "steps/02-b/src/a.ts"))).toBe(false);
    expect(read(root, "steps/03-c/src/a.ts")).toBe(FAR);
    const pkg = (folder) => `{\n  "name": "@learn-mcp/${folder}",\n  "private": true,\n  "type": "module"\n}\n`;
    write(root, "steps/01-a/package.json", pkg("01-a"));
    const { status, output } = carry(root, "1", "package.json");
    expect(output).toContain("steps/02-b: was identical to the old copy: now the new copy");
    expect(status).toBe(0);
    expect(read(root, "steps/02-b/package.json")).toBe(pkg("02-b"));
    expect(read(root, "steps/03-c/package.json")).toBe(pkg("03-c"));
  });

  it("refuses a file with no change, an unknown step and a call without its two arguments", () => {
    const root = makeRepo({ "01-a": OLD, "02-b": OLD });
    const unchanged = carry(root, "1", "src/a.ts");
    expect(unchanged.output).toContain("steps/01-a/src/a.ts is the same as at HEAD: nothing to carry");
    expect(unchanged.status).toBe(2);
    expect(carry(root, "9", "src/a.ts").output).toContain("step:carry: no step 9");
    const usage = carry(root, "1");
    expect(usage.output).toContain("usage: pnpm step:carry <N> <file>");
    expect(usage.status).toBe(2);
    expect(read(root, "steps/02-b/src/a.ts")).toBe(OLD);
  });
});
