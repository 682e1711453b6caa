// Why this step has a transport of its own: what the SDK's StdioClientTransport does with the same fixtures.
// Each assertion here is a shortcoming the manager's tests show it does not have.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, test } from "vitest";
import { fixture, text } from "./test/servers.ts";

/**
 * Live processes (a zombie, state Z, has exited) whose command line holds `marker`: from ps, as on Linux so on macOS.
 */
function running(marker: string): number[] {
  const rows = execFileSync("ps", ["-ww", "-A", "-o", "pid=", "-o", "stat=", "-o", "args="], { encoding: "utf8" })
    .trim()
    .split("\n");
  return rows
    .map((row) => row.trim().split(/\s+/))
    .filter(([, stat, ...args]) => !stat!.startsWith("Z") && args.join(" ").includes(marker))
    .map(([pid]) => Number(pid));
}

test("the SDK's stdio client strips the server's environment, and close() leaves a wrapper's child", async () => {
  const label = `sdk-stdio-${process.pid}`; // marks this test's processes in ps's listing
  process.env.FIXTURE_SETTING = "set in the host";
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [fixture("wrapper.mjs"), label],
    stderr: "pipe",
  });
  const client = new Client({ name: "sdk-stdio-test", version: "0.1.0" });
  try {
    await client.connect(transport);
    // Only HOME, LOGNAME, PATH, SHELL, TERM and USER pass; ServerTransport passes the host's whole environment.
    expect(text(await client.callTool({ name: "setting" }))).toBe("(unset)");
    expect(running(label)).toHaveLength(2); // the wrapper and tools.mjs
    await client.close();
    await sleep(200);
    expect(running(label).length).toBe(1); // tools.mjs, orphaned: close() signalled the wrapper only
  } finally {
    delete process.env.FIXTURE_SETTING;
    for (const pid of running(label)) process.kill(pid, "SIGKILL");
  }
}, 30_000);
