// `pnpm conformance` as part of the test command: every run passes against its expected-failures file with at least the
// checks it had when the suite was pinned; a stale expected failure fails its run, which proves the run can fail.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { parseReport, problems, requiredScenarios } from "./report.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-conformance-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs conformance.ts with `args`; resolves with its exit code and what it printed. */
function conformance(args = []) {
  const command = ["--import", "tsx", "scripts/conformance/conformance.ts", ...args];
  return new Promise((resolve) => {
    execFile(process.execPath, command, { cwd: REPO_ROOT, timeout: 840_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? error.code : 0, stdout, stderr });
    });
  });
}

// Checks passed per run with @modelcontextprotocol/conformance 0.2.0-alpha.12. A run that passes with far fewer ran
// scenarios that never got going; 10% less is allowed, since scenarios a revision does not score may lose a check or
// two on a loaded machine without failing the run. The test command runs six of the seven: the client's run at
// 2025-11-25 (about 34 s of CPU) scores the same client code as the 2026-07-28 run, at the older revision; `pnpm
// conformance` runs all seven.
const PINNED = {
  "sdk-http-2025-11-25": 81,
  "bridge-2025-11-25": 80,
  "sdk-http-2026-07-28": 162,
  "bridge-2026-07-28": 11,
  "client-2026-07-28": 473,
  authorization: 2,
};
const LINE =
  /^conformance (\S+): (\d+) checks passed, (\d+) failed, \d+ warnings in \d+ scenarios \([\d.]+ s\): (PASSED|FAILED)$/gm;

describe("pnpm conformance", { timeout: 900_000 }, () => {
  it("passes every run against its expected-failures file, and fails a run whose expected failure passes", async () => {
    // One stale entry: tools-call-simple-text passes, so listing it as expected to fail must fail the run.
    const staleDir = mkdtempSync(path.join(scratch, "stale-"));
    writeFileSync(path.join(staleDir, "sdk-http-2025-11-25.yaml"), "server:\n  - tools-call-simple-text\n");
    const only = Object.keys(PINNED).flatMap((name) => ["--only", name]);
    const [all, broken] = await Promise.all([
      conformance(only),
      conformance(["--only", "sdk-http-2025-11-25", "--expected", staleDir]),
    ]);

    const runs = Object.fromEntries(
      [...all.stdout.matchAll(LINE)].map(([, name, passed, failed, verdict]) => [
        name,
        { passed: +passed, failed: +failed, verdict },
      ]),
    );
    expect(Object.keys(runs).sort(), all.stdout).toEqual(Object.keys(PINNED).sort());
    for (const [name, passed] of Object.entries(PINNED)) {
      expect(runs[name].verdict, `${name}\n${all.stdout}`).toBe("PASSED");
      expect(runs[name].passed, name).toBeGreaterThanOrEqual(Math.floor(passed * 0.9));
    }
    expect(all.stdout).toContain("6 passed, 0 failed");
    expect(all.code, all.stdout + all.stderr).toBe(0);

    expect(broken.stdout).toMatch(/^conformance sdk-http-2025-11-25: 81 checks passed, 0 failed, .*: FAILED$/m);
    expect(broken.stdout).toContain("a stale entry there");
    expect(broken.stdout).toContain("0 passed, 1 failed");
    expect(broken.code).toBe(1);
  });
});

//#region report
const summary = (lines) => `noise\n=== SUMMARY ===\n${lines.join("\n")}\n`;

describe("reading the suite's summary", () => {
  it("reads scenarios and totals, and counts a required scenario with no checks as a crash", () => {
    const report = parseReport(
      summary([
        "✓ ping: 2 passed, 0 failed",
        "✓ tools-list: 0 passed, 0 failed",
        "✓ extra: 0 passed, 0 failed",
        "",
        "Total: 2 passed, 0 failed",
      ]),
    );
    expect(report).toEqual({
      scenarios: [
        { name: "ping", ok: true, passed: 2, failed: 0 },
        { name: "tools-list", ok: true, passed: 0, failed: 0 },
        { name: "extra", ok: true, passed: 0, failed: 0 },
      ],
      passed: 2,
      failed: 0,
      warnings: 0,
    });
    expect(problems(0, report, new Set(["ping", "tools-list"]))).toEqual([
      "tools-list ran no check: the client or server under test crashed or never answered",
    ]);
    expect(problems(0, report, new Set(["ping"]))).toEqual([]);
  });

  it("fails a run that exited non-zero or printed no summary", () => {
    const report = parseReport(summary(["✗ ping: 1 passed, 1 failed", "Total: 1 passed, 1 failed, 3 warnings"]));
    expect(report.warnings).toBe(3);
    expect(problems(1, report, new Set())).toHaveLength(1);
    expect(parseReport("Error: cannot connect\n")).toBeUndefined();
    expect(problems(1, undefined, new Set())).toEqual(["the suite printed no summary (exit status 1)"]);
  });

  it("lists the scenarios a revision requires of one side", () => {
    const yaml =
      "# comment\nserver:\n  - ping\n  - tools-list\n\nclient:\n  - initialize\nnot_scored:\n  - scenario: x\n    leg: server\n";
    expect([...requiredScenarios(yaml, "server")]).toEqual(["ping", "tools-list"]);
    expect([...requiredScenarios(yaml, "client")]).toEqual(["initialize"]);
  });
});
//#endregion
