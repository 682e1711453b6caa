// The demo interrupted the way Ctrl-C does it, twice in a row, to its whole process group: it still stops what it
// started and removes its temporary folder before it exits.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { groupsBelow, leftAfter } from "./test/tree.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "learn-mcp-main-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

test("SIGINT twice at once, as soon as the project is written: no folder and no process is left", async () => {
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  // The demo's folder goes where TMPDIR says, so that this test can see it.
  const demo = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), main], {
    env: { ...process.env, TMPDIR: tmp },
    stdio: "ignore",
    detached: true,
  });
  const exited = once(demo, "exit");
  const folders = () => readdirSync(tmp).filter((name) => name.startsWith("learn-mcp-")); // tsx keeps a cache there too
  const written = () => folders().some((name) => existsSync(path.join(tmp, name, "project", ".mcp.json")));
  while (!written() && demo.exitCode === null) await sleep(20);
  const groups = groupsBelow(demo.pid!);
  process.kill(-demo.pid!, "SIGINT");
  process.kill(-demo.pid!, "SIGINT");
  const [, signal] = await exited;
  expect(signal).toBe(null); // it exited on its own; the signal did not end it halfway
  expect(folders()).toEqual([]);
  expect(await leftAfter(groups, 10_000)).toEqual([]);
}, 30_000);
