// `pnpm bench --http --smoke` as a test: each HTTP row answers add(a, 42 - a) with 42 and stops every process it
// started. A floor that answers 41 runs in the same run and must be caught, which proves the check can fail. No
// timings.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canReadProc } from "../../steps/runner/shared/processes.mjs";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { stillRunning } from "./processes.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-bench-http-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Every row but the 1- and 4-worker ones, which start the same program as the 2-worker row: each worker loads the SDK
// through tsx, and those two rows alone would cost more CPU than the rest of this test.
const ROWS = ["stdio", "floor", "least-bridge", "bridge", "sdk-json", "sdk-sse", "workers-2", "floor-wrong"];

function smoke() {
  const json = path.join(scratch, "http.json");
  const command = [
    "--import",
    "tsx",
    "scripts/bench/main.ts",
    "--http",
    "--smoke",
    "--json",
    json,
    "--pairs",
    ROWS.join(","),
  ];
  return new Promise((resolve) => {
    execFile(process.execPath, command, { cwd: REPO_ROOT, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr, results: JSON.parse(readFileSync(json, "utf8")) });
    });
  });
}

// The bench reads CPU per process from /proc: it needs Linux, and says so and stops anywhere else.
describe.skipIf(!canReadProc())("pnpm bench --http --smoke", { timeout: 150_000 }, () => {
  it("gets 42 from every row, catches a row that answers 41, and leaves no process behind", async () => {
    const { code, stdout, results } = await smoke();
    const round = (id) => results.rows.find((row) => row.id === id).rounds[0];
    expect(results.rows.map((row) => row.id)).toEqual(ROWS);
    for (const id of ROWS.slice(0, -1)) {
      // 3 calls with one in flight, then 4 callers until 8 calls are done: 11 answers at least, each checked to be
      // "42".
      expect(round(id), id).not.toHaveProperty("error");
      expect(round(id).answered, id).toBeGreaterThanOrEqual(11);
    }
    // Each bridge and the stdio server it started (tsx may add an esbuild service to either).
    for (const id of ["bridge", "least-bridge"])
      expect(
        round(id).processes.filter((proc) => proc.name === "node"),
        id,
      ).toHaveLength(2);
    expect(Object.keys(round("workers-2").servedBy).sort()).toEqual(["worker 1", "worker 2"]);
    expect(round("floor-wrong").error).toMatch(/answered "41", not "42"/);
    expect(stdout).toContain("floor answering 41, round 1: ");
    for (const id of ROWS) expect(round(id).leftovers, id).toEqual([]);
    expect(stillRunning(results.rows.flatMap((row) => row.rounds[0].processes))).toEqual([]);
    expect(code).toBe(1);
  });
});
