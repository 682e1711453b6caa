// The manager against real processes: servers that exit, hang, flood or cannot start beside servers that work;
// names routed back to the right server and tool; list_changed; restarts and the 60 s rule; nothing left behind.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CallError, McpManager } from "./manager.ts";
import { leftInGroups } from "./groups.ts";
import { fixture, stdio, text, toolsServer } from "./test/servers.ts";

describe("a manager with good and bad servers", () => {
  const lines: string[] = [];
  const warnings: string[] = [];
  let changed: (server: string) => void = () => {};
  // Long enough for a node process on a busy machine; the silent server costs it once.
  const manager = new McpManager(
    [
      // "a" + "b__c" and "a__b" + "c" both read mcp__a__b__c; "read.file" and "read_file" both read mcp__a__read_file.
      toolsServer("a", ["b__c", "read.file", "read_file"], { FIXTURE_SETTING: "from the entry" }),
      toolsServer("a__b", ["c"]),
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
    {
      timeoutMs: 5000,
      log: (line) => lines.push(line),
      warn: (line) => warnings.push(line),
      onToolsChanged: (server) => changed(server),
    },
  );
  beforeAll(() => manager.connectAll(), 30_000);
  afterAll(() => manager.closeAll(), 30_000);

  test("each bad server is reported with its reason, and the good ones are ready", () => {
    expect(manager.status()).toEqual([
      { name: "a", state: "ready", tools: 7 },
      { name: "a__b", state: "ready", tools: 5 },
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

  test("colliding names are all offered, numbered in server then tool order, with a warning", () => {
    expect(manager.tools().map((tool) => tool.name)).toEqual([
      "mcp__a__b__c",
      "mcp__a__crash",
      "mcp__a__noise",
      "mcp__a__read_file",
      "mcp__a__read_file_2",
      "mcp__a__setting",
      "mcp__a__unlock",
      "mcp__a__b__c_2",
      "mcp__a__b__crash",
      "mcp__a__b__noise",
      "mcp__a__b__setting",
      "mcp__a__b__unlock",
    ]);
    expect(warnings).toEqual([
      'warning: tool "read_file" of server "a" is offered as mcp__a__read_file_2: mcp__a__read_file is taken',
      'warning: tool "c" of server "a__b" is offered as mcp__a__b__c_2: mcp__a__b__c is taken',
    ]);
  });

  test("routes tell where each name goes: the server and the tool's own name", () => {
    expect(manager.routes().map(({ name, server, tool }) => `${name} -> ${server} / ${tool}`)).toEqual([
      "mcp__a__b__c -> a / b__c",
      "mcp__a__crash -> a / crash",
      "mcp__a__noise -> a / noise",
      "mcp__a__read_file -> a / read.file",
      "mcp__a__read_file_2 -> a / read_file",
      "mcp__a__setting -> a / setting",
      "mcp__a__unlock -> a / unlock",
      "mcp__a__b__c_2 -> a__b / c",
      "mcp__a__b__crash -> a__b / crash",
      "mcp__a__b__noise -> a__b / noise",
      "mcp__a__b__setting -> a__b / setting",
      "mcp__a__b__unlock -> a__b / unlock",
    ]);
    // a route, not the tool's definition
    expect(manager.routes()[0]).toEqual({ name: "mcp__a__b__c", server: "a", tool: "b__c" });
  });

  test("a call goes to the right server under the tool's original name, even with __ in the names", async () => {
    expect(text(await manager.callTool("mcp__a__b__c"))).toBe("a:b__c");
    expect(text(await manager.callTool("mcp__a__b__c_2"))).toBe("a__b:c");
    expect(text(await manager.callTool("mcp__a__read_file"))).toBe("a:read.file");
    expect(text(await manager.callTool("mcp__a__read_file_2"))).toBe("a:read_file");
  });

  test("a server gets the host's environment and its entry's env", async () => {
    expect(text(await manager.callTool("mcp__a__setting"))).toBe("from the entry");
  });

  test("an unknown tool is refused with the servers that failed", async () => {
    await expect(manager.callTool("mcp__exits__anything")).rejects.toThrow(
      'unknown tool "mcp__exits__anything": no server offers it (failed: exits, hangs, floods, missing)',
    );
  });

  test("each stderr line is printed with its server's name", () => {
    expect(lines).toContain("[exits] missing API key");
    expect(lines).toContain("[a] a ready with 7 tools");
  });

  test("a stdout line not JSON, or answering no request, is shown with the server's name; calls answer", async () => {
    expect(text(await manager.callTool("mcp__a__noise"))).toBe("noisy");
    expect(lines).toContain("[a] stdout line that is not JSON, skipped: debug: this line is not JSON");
    // A message of the wrong kind reaches the Client, whose complaint goes to the same place.
    expect(lines).toContain(
      '[a] Received a response for an unknown message ID: {"jsonrpc":"2.0","id":999999,"result":{}}',
    );
  });

  test("notifications/tools/list_changed brings the new tool under its qualified name", async () => {
    const refreshed = new Promise<string>((resolve) => (changed = resolve));
    expect(text(await manager.callTool("mcp__a__b__unlock"))).toBe("unlocked: secret");
    expect(await refreshed).toBe("a__b");
    expect(manager.tools().map((tool) => tool.name)).toContain("mcp__a__b__secret");
    expect(text(await manager.callTool("mcp__a__b__secret"))).toBe("a__b:secret");
    expect(manager.status().find((server) => server.name === "a__b")?.tools).toBe(6);
  });
});

test("a server that dies is restarted on its next use, and marked failed when it dies again within 60 s", async () => {
  let clock = 1_000_000;
  const manager = new McpManager([toolsServer("v", ["x"])], { now: () => clock, log: () => {} });
  const state = () => manager.status()[0];
  try {
    await manager.connectAll();
    const crash = await manager.callTool("mcp__v__crash").catch((error: CallError) => error);
    expect(crash).toMatchObject({
      message:
        'tools/call "crash" on server "v" failed: exited with code 7; stderr: v ready with 5 tools | crashing on purpose',
    });
    // The model reads tool errors: it is told the server stopped, never what the server wrote to the terminal.
    expect((crash as CallError).forModel).toBe('the server "v" stopped; its output is on the user\'s terminal');
    expect(state()).toMatchObject({
      state: "exited",
      lastError: "exited with code 7; stderr: v ready with 5 tools | crashing on purpose",
    });
    expect(text(await manager.callTool("mcp__v__x"))).toBe("v:x"); // restarted here, at `clock`
    clock += 61_000;
    await expect(manager.callTool("mcp__v__crash")).rejects.toThrow("exited with code 7");
    expect(state().state).toBe("exited"); // 61 s after its restart: a new chance
    expect(text(await manager.callTool("mcp__v__x"))).toBe("v:x");
    clock += 59_000;
    await expect(manager.callTool("mcp__v__crash")).rejects.toThrow("exited with code 7");
    expect(state()).toMatchObject({
      state: "failed",
      lastError: expect.stringMatching(/\(again, within 60 s of its restart\)$/),
    });
    await expect(manager.callTool("mcp__v__x")).rejects.toThrow(
      /^server "v" is failed: exited with code 7; .*within 60 s/,
    );
    expect(manager.tools()).toEqual([]);
    expect(await manager.reconnect("v")).toEqual({ name: "v", state: "ready", tools: 5 });
    expect(text(await manager.callTool("mcp__v__x"))).toBe("v:x");
  } finally {
    await manager.closeAll();
  }
}, 30_000);

test("closeAll leaves no process, not even a wrapper's grandchild, and says what it SIGKILLed", async () => {
  const lines: string[] = [];
  const manager = new McpManager([stdio("wrapped", process.execPath, [fixture("wrapper.mjs"), "wrapped", "x"])], {
    log: (line) => lines.push(line),
  });
  await manager.connectAll();
  expect(text(await manager.callTool("mcp__wrapped__x"))).toBe("wrapped:x"); // answered by the grandchild
  const groups = manager.processGroups();
  expect(await leftInGroups(groups, 0)).toHaveLength(2); // the wrapper and its server, both ignoring SIGTERM
  await manager.closeAll();
  expect(await leftInGroups(groups)).toEqual([]);
  expect(manager.status()[0]?.state).toBe("closed");
  expect(lines).toContain(`[wrapped] still running 2000 ms after SIGTERM: SIGKILL to its process group ${groups[0]}`);
}, 30_000);

test("a stderr line without end is kept to the bound and printed cut; the calls still answer", async () => {
  const lines: string[] = [];
  let printed = () => {};
  const cutLine = new Promise<void>((resolve) => (printed = resolve));
  const log = (line: string) => (lines.push(line), line.startsWith("[chatty] x") && printed());
  const manager = new McpManager([toolsServer("chatty", [], { STDERR_MIB: "64", FIXTURE_SETTING: "still here" })], {
    log,
  });
  try {
    await manager.connectAll();
    await cutLine; // the 64 MiB arrive after the handshake: stderr is not read in step with stdout
    expect(text(await manager.callTool("mcp__chatty__setting"))).toBe("still here");
    await manager.closeAll(); // the end of stderr: whatever is still held would be printed now
    // One line of the bound's length; the rest of it, and the fixture's "ready" written on the same line, dropped.
    expect(lines.map((line) => line.length)).toEqual([
      `[chatty]  [cut: a line of more than ${16 * 1024 * 1024} bytes]`.length + 16 * 1024 * 1024,
    ]);
    expect(lines[0]!.endsWith("xxx [cut: a line of more than 16777216 bytes]")).toBe(true);
  } finally {
    await manager.closeAll();
  }
}, 30_000);

test("escape sequences and control characters in a server's name, stderr and stdout are never printed", async () => {
  const lines: string[] = [];
  const hostile = "\u001b]0;pwned\u0007\u001b[2Jred\rdone\u0007\u009b31m";
  const manager = new McpManager(
    [
      stdio("bad\u001b[31mname", "node", [
        "-e",
        "console.error(process.argv[1]); console.log(process.argv[1]); process.exit(3)",
        hostile,
      ]),
    ],
    { log: (line) => lines.push(line) },
  );
  try {
    await manager.connectAll();
    expect(lines).toEqual(
      expect.arrayContaining(["[badname] reddone", "[badname] stdout line that is not JSON, skipped: reddone"]),
    );
    expect(manager.status()[0]?.lastError).toBe("the handshake failed: exited with code 3; stderr: reddone");
  } finally {
    await manager.closeAll();
  }
});

test("a burst of list_changed costs one tools/list in flight and one more; the list ends current", async () => {
  const lists: string[][] = [];
  let changed = () => {};
  const manager = new McpManager([stdio("churn", process.execPath, [fixture("churn.mjs")])], {
    log: () => {},
    onToolsChanged: () => changed(),
  });
  const names = () => manager.tools().map((tool) => tool.name);
  try {
    await manager.connectAll();
    const current = new Promise<void>(
      (resolve) => (changed = () => (lists.push(names()), names().includes("mcp__churn__version_1000") && resolve())),
    );
    expect(text(await manager.callTool("mcp__churn__churn"))).toBe("1000");
    await current;
    const requests = Number(text(await manager.callTool("mcp__churn__lists")));
    expect(requests).toBeGreaterThanOrEqual(2); // the first, at connect, and at least one after the burst
    expect(requests).toBeLessThanOrEqual(3); // not one per notification
    expect(names()).toEqual(["mcp__churn__churn", "mcp__churn__lists", "mcp__churn__version_1000"]);
  } finally {
    await manager.closeAll();
  }
});

test("a qualified name never moves: a newcomer whose name is taken gets the next one, and a warning", async () => {
  const warnings: string[] = [];
  let changed = () => {};
  // "v.x" and "v_x" both read mcp__v_x__…; v_x offers secret from the start, v.x only after unlock.
  const manager = new McpManager([toolsServer("v.x"), toolsServer("v_x", ["secret"])], {
    log: () => {},
    warn: (line) => warnings.push(line),
    onToolsChanged: () => changed(),
  });
  try {
    await manager.connectAll();
    expect(text(await manager.callTool("mcp__v_x__secret"))).toBe("v_x:secret");
    const refreshed = new Promise<void>((resolve) => (changed = resolve));
    expect(text(await manager.callTool("mcp__v_x__unlock"))).toBe("unlocked: secret"); // v.x's unlock: it sorts first
    await refreshed;
    expect(text(await manager.callTool("mcp__v_x__secret"))).toBe("v_x:secret");
    expect(text(await manager.callTool("mcp__v_x__secret_2"))).toBe("v.x:secret");
    expect(warnings.at(-1)).toBe(
      'warning: tool "secret" of server "v.x" is offered as mcp__v_x__secret_2: mcp__v_x__secret is taken',
    );
  } finally {
    await manager.closeAll();
  }
});

test("closeAll also stops a process the server started in a session of its own, outside its group", async () => {
  const lines: string[] = [];
  const manager = new McpManager([stdio("daemon", process.execPath, [fixture("detached.mjs"), "daemon", "x"])], {
    log: (line) => lines.push(line),
  });
  await manager.connectAll();
  expect(text(await manager.callTool("mcp__daemon__x"))).toBe("daemon:x");
  while (!lines.some((line) => line.includes("detached child pid")))
    await new Promise((resolve) => setTimeout(resolve, 20));
  const daemon = Number(/detached child pid (\d+)/.exec(lines.join("\n"))![1]);
  try {
    expect(await leftInGroups([daemon], 0)).toEqual([daemon]); // it leads a group of its own
    await manager.closeAll();
    expect(await leftInGroups([daemon, ...manager.processGroups()])).toEqual([]);
  } finally {
    try {
      process.kill(daemon, "SIGKILL"); // still running if the test failed
    } catch {
      // Stopped, as it should be.
    }
  }
}, 30_000);
