// The leftover-process scan on real processes: marked children, orphans naming the root, and what it spares; the scan
// of a run's temporary folder; and the runner tests' fixture folders, found and never collected as tests.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { canCheck, findLeftovers, fixturesIn, killLeftovers, leftInTemp, MARKER, snapshotPids } from "./leftovers.mjs";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { FIXTURE_PREFIX } from "../../steps/runner/test/helpers.mjs";

// A root no real process mentions, so the scan cannot pick up anything but these tests' processes.
const ROOT = `/nonexistent/learn-mcp-leftovers-${process.pid}`;
const SLEEP = "setTimeout(() => {}, 60000)";
const started = [];

function sleeper(env, ...args) {
  const child = spawn(process.execPath, ["-e", SLEEP, ...args], { env, detached: true, stdio: "ignore" });
  started.push(child.pid);
  return child;
}

// Starts a sleeper naming ROOT through a parent that does not (it reads ROOT from its environment) and prints
// the sleeper's pid; `parentStays` keeps that parent alive. Neither carries the marker.
async function grandchild(parentStays) {
  const script = `
    const argv = ["-e", ${JSON.stringify(SLEEP)}, process.env.ROOT];
    const c = require("node:child_process").spawn(process.execPath, argv, { detached: true, stdio: "ignore", env: {} });
    console.log(c.pid);
    ${parentStays ? SLEEP : "c.unref();"}`;
  const parent = spawn(process.execPath, ["-e", script], { env: { ROOT }, stdio: ["ignore", "pipe", "ignore"] });
  started.push(parent.pid);
  const [chunk] = await once(parent.stdout, "data");
  const pid = Number(String(chunk).trim());
  started.push(pid);
  if (!parentStays) await once(parent, "exit");
  return pid;
}

afterEach(() => {
  killLeftovers(started.splice(0).map((pid) => ({ pid })));
});

describe.skipIf(!canCheck())("findLeftovers", () => {
  it("finds a detached child carrying the marker, and killLeftovers kills it", async () => {
    const before = snapshotPids();
    const child = sleeper({ ...process.env, [MARKER]: "run-1" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const found = findLeftovers({ before, marker: "run-1", root: ROOT });
    expect(found).toEqual([{ pid: child.pid, command: `${process.execPath} -e ${SLEEP}` }]);
    killLeftovers(found);
    const [, signal] = await once(child, "exit");
    expect(signal).toBe("SIGKILL");
  });

  it("ignores processes from before the snapshot and other runs' markers", async () => {
    const old = sleeper({ ...process.env, [MARKER]: "run-2" });
    const before = snapshotPids();
    sleeper({ ...process.env, [MARKER]: "another-run" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(findLeftovers({ before, marker: "run-2", root: ROOT })).toEqual([]);
    expect(before.has(old.pid)).toBe(true);
  });

  it("finds an orphan without the marker whose command line mentions the root", async () => {
    const before = snapshotPids();
    const pid = await grandchild(false);
    const found = findLeftovers({ before, marker: "run-3", root: ROOT });
    expect(found.map((leftover) => leftover.pid)).toEqual([pid]);
  });

  it("spares a process that mentions the root while its parent is still running", async () => {
    const before = snapshotPids();
    await grandchild(true);
    expect(findLeftovers({ before, marker: "run-4", root: ROOT })).toEqual([]);
  });
});

describe("leftInTemp", () => {
  it("names every file and folder left in the run's temporary folder, but not tsx's cache nor Node's", () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "leftovers-test-"));
    try {
      expect(leftInTemp(tmp)).toEqual([]);
      mkdirSync(path.join(tmp, "tsx-0"));
      mkdirSync(path.join(tmp, "node-compile-cache"));
      expect(leftInTemp(tmp)).toEqual([]);
      mkdirSync(path.join(tmp, "learn-mcp-board-x1"));
      writeFileSync(path.join(tmp, "a.log"), "");
      mkdirSync(path.join(tmp, "tsx-cache-copy"));
      mkdirSync(path.join(tmp, "node-compile-cache-copy"));
      expect(leftInTemp(tmp)).toEqual(["a.log", "learn-mcp-board-x1", "node-compile-cache-copy", "tsx-cache-copy"]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe("the runner tests' fixture folders", () => {
  it("are named by fixturesIn, and nothing else in steps/runner is", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "leftovers-test-"));
    try {
      expect(fixturesIn(root)).toEqual([]);
      const runner = path.join(root, "steps", "runner");
      for (const name of [`${FIXTURE_PREFIX}b2`, `${FIXTURE_PREFIX}a1`, "exercise"])
        mkdirSync(path.join(runner, name), { recursive: true });
      writeFileSync(path.join(runner, ".tmp-other"), "");
      expect(fixturesIn(root)).toEqual([`steps/runner/${FIXTURE_PREFIX}a1`, `steps/runner/${FIXTURE_PREFIX}b2`]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("hold tests vitest does not collect as the runner's", () => {
    const planted = mkdtempSync(path.join(REPO_ROOT, "steps", "runner", FIXTURE_PREFIX));
    try {
      writeFileSync(path.join(planted, ".gitignore"), "*\n");
      writeFileSync(
        path.join(planted, "planted.test.mjs"),
        'import { test } from "vitest";\ntest("planted", () => {});\n',
      );
      const vitest = path.join(REPO_ROOT, "node_modules", ".bin", "vitest");
      const list = spawnSync(vitest, ["list", "--project", "@learn-mcp/runner", "--filesOnly"], {
        cwd: REPO_ROOT,
        encoding: "utf8",
      });
      expect(list.stdout).toContain("steps/runner/run.test.mjs");
      expect(list.stdout).not.toContain("planted.test.mjs");
      expect(list.status).toBe(0);
    } finally {
      rmSync(planted, { recursive: true, force: true });
    }
  });
});
