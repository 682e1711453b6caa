// The bench's smoke mode as a test: every pair carries small calls and one 1 MB UTF-8 text intact.
// A naive echo that decodes each chunk on its own must be caught, which proves the check can fail. No timings.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canReadProc } from "../../steps/runner/shared/processes.mjs";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const scratch = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-bench-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `main.ts --smoke` with `args`; resolves with its exit code, output and the results file. */
function smoke(name, args = []) {
  const json = path.join(scratch, `${name}.json`);
  const command = ["--import", "tsx", "scripts/bench/main.ts", "--smoke", "--json", json, ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, command, { cwd: REPO_ROOT, timeout: 240_000 }, (error, stdout, stderr) => {
      const results = JSON.parse(readFileSync(json, "utf8"));
      resolve({ code: error ? error.code : 0, stdout, stderr, results });
    });
  });
}

const roundOf = (results, id) => results.pairs.find((pair) => pair.id === id).rounds[0];

// The bench reads CPU per process from /proc: it needs Linux, and says so and stops anywhere else.
describe.skipIf(!canReadProc())("pnpm bench --smoke", { timeout: 300_000 }, () => {
  it("gets every pair's 1 MB text back byte for byte", async () => {
    const { code, stdout, results } = await smoke("all");
    expect(results.pairs.map((pair) => pair.id)).toEqual([
      "raw",
      "raw-batched",
      "hand-before",
      "hand",
      "sdk",
      "hand-sdk",
      "sdk-hand",
    ]);
    for (const pair of results.pairs) {
      expect(roundOf(results, pair.id), pair.label).toMatchObject({
        bigCalls: 1,
        corrupted: 0,
        replaced: 0,
        failed: 0,
      });
    }
    expect(stdout).toContain("hand client ↔ hand server, before the speed-ups          1/1");
    expect(stdout).toContain("hand client ↔ hand server                                1/1");
    expect(code).toBe(0);
  });

  it("catches an echo that breaks characters split across chunks", async () => {
    const { code, stdout, results } = await smoke("naive", ["--pairs", "naive"]);
    const round = roundOf(results, "naive");
    expect(round).toMatchObject({ bigCalls: 1, corrupted: 1, failed: 0 });
    expect(round.replaced).toBeGreaterThan(0);
    expect(stdout).toContain("naive pipe echo, round 1: 1 corrupted");
    expect(code).toBe(1);
  });
});
