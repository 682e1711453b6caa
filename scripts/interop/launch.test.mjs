// The matrix's leftover check on real processes: a tagged process that outlives the grace period is found and killed.
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { canReadProc } from "../../steps/runner/shared/processes.mjs";
import { CELL_TAG, runProcess, survivors, tagged } from "./launch.mjs";

const started = [];
const tag = `launch-test-${process.pid}`;
function node(script, env) {
  const child = spawn(process.execPath, ["-e", script], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "ignore", "ignore"],
  });
  started.push(child);
  return child;
}
afterEach(() => started.splice(0).forEach((child) => child.kill("SIGKILL")));

// A cell's processes are found by a tag in their environment, which only /proc shows: Linux only.
describe.skipIf(!canReadProc())("survivors", () => {
  it("reports and kills a tagged process that outlives the grace period", async () => {
    const sleeper = node("setTimeout(() => {}, 60000)", { [CELL_TAG]: tag });
    await expect.poll(() => tagged(tag), { timeout: 10_000 }).toEqual([sleeper.pid]);
    const left = await survivors(tag, 300);
    expect(left).toEqual([{ pid: sleeper.pid, command: expect.stringContaining("setTimeout") }]);
    await expect.poll(() => tagged(tag)).toEqual([]);
  });

  it("spares a tagged process that exits within the grace period, and every untagged one", async () => {
    // It exits once its stdin closes, which happens only after the poll has seen it: no race with a loaded machine.
    const brief = node('process.stdin.resume().on("end", () => process.exit())', { [CELL_TAG]: tag });
    const untagged = node("setTimeout(() => {}, 60000)", {});
    await expect.poll(() => tagged(tag), { timeout: 10_000 }).toHaveLength(1);
    brief.stdin.end();
    expect(await survivors(tag, 10_000)).toEqual([]);
    expect(untagged.exitCode).toBe(null);
  });
});

describe("runProcess", () => {
  it("resolves with the exit status and both streams, whatever the status", async () => {
    const script = 'process.stdout.write("out"); process.stderr.write("err"); process.exitCode = 3';
    const result = await runProcess([process.execPath, "-e", script], process.env);
    expect(result).toMatchObject({ status: 3, stdout: "out", stderr: "err" });
  });
});
