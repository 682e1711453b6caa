// runInGroup on real processes: a program that starts a child and hangs is stopped with its child, and what both wrote
// is kept. The child writes its pid first thing, well within the timeout that ends it.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { isAlive } from "../../steps/runner/shared/processes.mjs";
import { runInGroup } from "./process-group.mjs";

// Starts a child in the same group that never exits, says its pid, and hangs; on SIGINT it says so and hangs on.
const HANGS = `
  const child = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
  process.on("SIGINT", () => console.log("interrupted"));
  console.log("child " + child.pid);
  setInterval(() => {}, 1000);
`;

function childOf(stdout) {
  const pid = Number(/child (\d+)/.exec(stdout)?.[1]);
  expect(pid, "the child's pid, as the program wrote it").toBeGreaterThan(0);
  return pid;
}

/** Whether `pid` is gone within 10 s: a killed process is reaped by init a moment later. */
async function goneSoon(pid) {
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 50) await sleep(50);
  return !isAlive(pid);
}

describe("runInGroup", () => {
  it("resolves with the status and each stream, apart and as they came, whatever the status", async () => {
    const script = 'process.stdout.write("out"); process.stderr.write("err"); process.exitCode = 3';
    const result = await runInGroup(process.execPath, ["-e", script], { timeoutMs: 30_000 });
    expect(result).toMatchObject({ status: 3, stdout: "out", stderr: "err", timedOut: false });
    expect(result.output.split("").sort().join("")).toBe("eorrtu");
  });

  it("kills the whole process group past its time, the program's own child too", async () => {
    const result = await runInGroup(process.execPath, ["-e", HANGS], { timeoutMs: 2_000 });
    expect(result).toMatchObject({ status: "SIGKILL", timedOut: true });
    expect(await goneSoon(childOf(result.stdout))).toBe(true);
  });

  it("with interruptMs, sends the program SIGINT first and kills the group that long after", async () => {
    const result = await runInGroup(process.execPath, ["-e", HANGS], { timeoutMs: 2_000, interruptMs: 500 });
    expect(result).toMatchObject({ status: "SIGKILL", timedOut: true });
    expect(result.stdout).toContain("interrupted");
    expect(await goneSoon(childOf(result.stdout))).toBe(true);
  });

  it("rejects when the program cannot be started", async () => {
    await expect(runInGroup("/nonexistent/program", [], { timeoutMs: 30_000 })).rejects.toThrow(/ENOENT/);
  });
});
