// The process readers from /proc and from ps (forced by LEARN_MCP_NO_PROC=1, as on macOS) give the same answers
// about one real process group: a leader, a running child and a zombie child that the leader never collects.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, test } from "vitest";
import {
  canReadProc,
  commandLine,
  isAlive,
  NO_PROC,
  processTree,
  procStat,
  readStat,
  snapshotPids,
  stopGroup,
} from "./processes.mjs";

const started = [];
const given = process.env[NO_PROC];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // Already stopped by the test.
    }
  }
  if (given === undefined) delete process.env[NO_PROC];
  else process.env[NO_PROC] = given;
});

// sh starts `sleep 60` and `sleep 0.5`, then becomes `sleep 61` through exec: sleep never collects a child, so the
// short one stays a zombie once it ends. detached: all three are in a process group the leader leads.
async function startGroup() {
  const leader = spawn("sh", ["-c", "sleep 60 & echo $!; sleep 0.5 & echo $!; exec sleep 61"], {
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  started.push(leader.pid);
  const lines = createInterface({ input: leader.stdout })[Symbol.asyncIterator]();
  const [child, zombie] = [Number((await lines.next()).value), Number((await lines.next()).value)];
  // Until the short sleep has ended, and each process runs its own command (a fork becomes sleep a moment later).
  const settled = () =>
    readStat(zombie)?.state === "Z" && commandLine(child) === "sleep 60" && commandLine(leader.pid) === "sleep 61";
  for (let waited = 0; waited < 5000 && !settled(); waited += 20) await sleep(20);
  return { leader, child, zombie };
}

// Only what a reader must agree on: ps and /proc may see a sleeping process a moment before or after it runs.
function whatIsSeen({ leader, child, zombie }) {
  const pick = (stat) => stat && { ppid: stat.ppid, pgrp: stat.pgrp, zombie: stat.state === "Z" };
  const seen = snapshotPids();
  return {
    snapshot: [leader.pid, child, zombie].map((pid) => seen.has(pid)),
    tree: processTree(leader.pid).sort((a, b) => a - b),
    stats: [leader.pid, child, zombie].map((pid) => pick(readStat(pid))),
    alive: [leader.pid, child, zombie].map(isAlive),
    commands: [commandLine(leader.pid), commandLine(child)],
  };
}

// Where /proc cannot be read (macOS, or LEARN_MCP_NO_PROC=1 already), there is nothing to compare with.
describe.runIf(canReadProc())("with and without /proc", () => {
  test(`${NO_PROC}=1 makes canReadProc() false, and every reader answers as /proc does`, async () => {
    const group = await startGroup();
    expect(canReadProc()).toBe(true);
    const fromProc = whatIsSeen(group);
    process.env[NO_PROC] = "1";
    expect(canReadProc()).toBe(false);
    const fromPs = whatIsSeen(group);
    expect(fromPs).toEqual(fromProc);
    const { leader, child, zombie } = group;
    expect(fromProc).toEqual({
      snapshot: [true, true, true],
      tree: [leader.pid, child, zombie].sort((a, b) => a - b),
      stats: [
        { ppid: process.pid, pgrp: leader.pid, zombie: false },
        { ppid: leader.pid, pgrp: leader.pid, zombie: false },
        { ppid: leader.pid, pgrp: leader.pid, zombie: true },
      ],
      alive: [true, true, false],
      commands: ["sleep 61", "sleep 60"],
    });
  });

  // The leader goes first; its running child is what stopGroup must find and stop, and the zombie is not.
  for (const mode of ["/proc", "ps"]) {
    test(`stopGroup stops what is left of a group whose leader is gone (${mode})`, async () => {
      if (mode === "ps") process.env[NO_PROC] = "1";
      const { leader, child } = await startGroup();
      leader.kill("SIGKILL");
      await once(leader, "exit");
      expect(await stopGroup(leader.pid, 0, 2000)).toBe(true);
      for (let waited = 0; waited < 5000 && isAlive(child); waited += 20) await sleep(20);
      expect(isAlive(child)).toBe(false);
      expect(await stopGroup(leader.pid, 0, 2000)).toBe(false);
    });
  }
});

// The kernel names a process after the file it ran, here a link whose name holds ") " and spaces as a field would.
describe.runIf(canReadProc())("procStat", () => {
  test("reads the fields after the last parenthesis, whatever the name holds; nothing once gone", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-procstat-"));
    try {
      const link = path.join(dir, "a) R 1 2");
      symlinkSync(execFileSync("sh", ["-c", "command -v sleep"], { encoding: "utf8" }).trim(), link);
      const child = spawn(link, ["60"], { detached: true, stdio: "ignore" });
      started.push(child.pid);
      const stat = procStat(child.pid);
      expect(stat.name).toBe("a) R 1 2");
      // Fields 4 and 5 of proc(5): the parent and the process group.
      expect(stat.fields.slice(1, 3)).toEqual([String(process.pid), String(child.pid)]);
      child.kill("SIGKILL");
      await once(child, "exit");
      expect(procStat(child.pid)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
