// The manager against real processes: servers that exit, hang, flood or cannot start beside one that works, each
// failure told in one sentence, every stderr line under its server's name, and closeAll leaving no process behind.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { McpManager } from "./manager.ts";
import { leftInGroups } from "./groups.ts";
import { fixture, stdio, toolsServer } from "./test/servers.ts";

describe("a manager with good and bad servers", () => {
  const lines: string[] = [];
  // Long enough for a node process on a busy machine; the silent server costs it once.
  const manager = new McpManager(
    [
      toolsServer("a", ["x"]),
      stdio("exits", "node", ["-e", "console.error('missing API key'); process.exit(3)"]),
      stdio("hangs", "node", ["-e", "setInterval(() => {}, 1000)"]),
      stdio("floods", process.execPath, [fixture("flood.mjs"), "17"]),
      stdio("missing", "no-such-command-learn-mcp", []),
      {
        name: "remote",
        scope: "user",
        file: ".claude.json",
        entry: { type: "http", url: "https://example.com/mcp", headers: {} },
        overrides: [],
      },
    ],
    { timeoutMs: 5000, log: (line) => lines.push(line) },
  );
  beforeAll(() => manager.connectAll(), 30_000);
  afterAll(() => manager.closeAll(), 30_000);

  test("each bad server is reported with its reason, and the good one is ready with its tools", () => {
    expect(manager.status()).toEqual([
      { name: "a", state: "ready", tools: 5 },
      {
        name: "exits",
        state: "failed",
        tools: 0,
        lastError: "the handshake failed: exited with code 3; stderr: missing API key",
      },
      { name: "hangs", state: "failed", tools: 0, lastError: "the handshake failed: no answer within 5000 ms" },
      {
        name: "floods",
        state: "failed",
        tools: 0,
        lastError: "the handshake failed: wrote a line of more than 16777216 bytes to stdout",
      },
      {
        name: "missing",
        state: "failed",
        tools: 0,
        lastError: expect.stringMatching(
          /^the handshake failed: could not be started: spawn no-such-command-learn-mcp ENOENT/,
        ),
      },
      { name: "remote", state: "unsupported", tools: 0, lastError: "remote (http) servers are not supported yet" },
    ]);
  });

  test("each stderr line is printed with its server's name", () => {
    expect(lines).toContain("[exits] missing API key");
    expect(lines).toContain("[a] a ready with 5 tools");
  });

  test("a server that failed is stopped, even one that still runs", async () => {
    const hangs = manager.processGroups()[manager.status().findIndex((server) => server.name === "hangs")]!;
    // Its stdin is ended and SIGTERM follows 2 s later: wait past that.
    expect(await leftInGroups([hangs], 10_000)).toEqual([]);
  });
});

test("closeAll ends every server it started and leaves no process in their groups", async () => {
  const manager = new McpManager([toolsServer("one"), toolsServer("two")], { log: () => {} });
  await manager.connectAll();
  const groups = manager.processGroups();
  expect(await leftInGroups(groups, 0)).toHaveLength(2);
  await manager.closeAll();
  expect(await leftInGroups(groups)).toEqual([]);
  expect(manager.status().map((server) => server.state)).toEqual(["closed", "closed"]);
}, 30_000);
