// leftInGroups on real process groups: one that empties a moment after the question, one that stays, and zombies.
import { execFileSync, spawn } from "node:child_process";
import { afterEach, expect, test } from "vitest";
import { leftInGroups } from "./groups.ts";

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
  }
});

/** A process group of its own (detached), led by sh running `script`. */
function group(script: string): number {
  const pid = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" }).pid!;
  started.push(pid);
  return pid;
}

test("a process on its way out is waited for, one that stays is named once the wait is over", async () => {
  const leaving = group("exec sleep 0.5");
  const staying = group("exec sleep 60");
  expect(await leftInGroups([leaving])).toEqual([]);
  expect(await leftInGroups([leaving, staying], 200)).toEqual([staying]);
  expect(await leftInGroups([staying], 0)).toEqual([staying]);
});

test("a zombie has exited, and does not count", async () => {
  // sh becomes `sleep 60` through exec; sleep never collects its children, so `sleep 0.2` stays a zombie once it ends.
  const leader = group("sleep 0.2 & exec sleep 60");
  const zombies = () =>
    execFileSync("ps", ["-A", "-o", "pgid=", "-o", "stat="], { encoding: "utf8" })
      .split("\n")
      .filter((row) => new RegExp(`^${leader}\\s+Z`).test(row.trim()));
  for (let tries = 0; tries < 100 && zombies().length === 0; tries++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(zombies()).toHaveLength(1);
  expect(await leftInGroups([leader], 0)).toEqual([leader]);
});
