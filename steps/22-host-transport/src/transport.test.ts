// ServerTransport under the SDK's Client, against real processes: the host's environment passed on, stderr under the
// server's name and kept for reports, a stdout line that is not JSON shown, and close() ending the whole group.
import { Client } from "@modelcontextprotocol/client";
import { afterEach, expect, test } from "vitest";
import { leftInGroups } from "./groups.ts";
import { fixture, text } from "./test/servers.ts";
import { ServerTransport } from "./transport.ts";

const opened: ServerTransport[] = [];
afterEach(() => Promise.all(opened.splice(0).map((transport) => transport.close())), 30_000);

/** A transport for `args` run by this Node; `lines` gets what it prints for the server. */
function transportFor(name: string, args: string[], env: Record<string, string> = {}, command = process.execPath) {
  const lines: string[] = [];
  const transport = new ServerTransport(name, { type: "stdio", command, args, env }, (line) => lines.push(line));
  opened.push(transport);
  return { transport, lines };
}

async function connected(name: string, args: string[], env: Record<string, string> = {}) {
  const { transport, lines } = transportFor(name, args, env);
  const client = new Client({ name: "transport-test", version: "0.1.0" });
  await client.connect(transport);
  return { client, transport, lines };
}

test("the server gets the host's whole environment, with its entry's env on top", async () => {
  process.env.FIXTURE_SETTING = "set in the host";
  try {
    const host = await connected("host", [fixture("tools.mjs"), "host"]);
    expect(text(await host.client.callTool({ name: "setting" }))).toBe("set in the host");
    const entry = await connected("entry", [fixture("tools.mjs"), "entry"], { FIXTURE_SETTING: "from the entry" });
    expect(text(await entry.client.callTool({ name: "setting" }))).toBe("from the entry");
  } finally {
    delete process.env.FIXTURE_SETTING;
  }
});

test("a stdout line that is not JSON is shown under the server's name and skipped, and the call still answers", async () => {
  const { client, lines } = await connected("noisy", [fixture("tools.mjs"), "noisy"]);
  expect(text(await client.callTool({ name: "noise" }))).toBe("noisy");
  expect(lines).toContain("[noisy] stdout line that is not JSON, skipped: debug: this line is not JSON");
});

test("stderr is printed line by line under the server's name, its last lines kept, and its exit told", async () => {
  const { client, transport, lines } = await connected("v", [fixture("tools.mjs"), "v"]);
  await expect(client.callTool({ name: "crash" })).rejects.toThrow();
  expect(await transport.exited).toBe("exited with code 7");
  expect(transport.exitReason).toBe("exited with code 7");
  expect(lines).toEqual(["[v] v ready with 4 tools", "[v] crashing on purpose"]);
  expect(transport.stderrTail).toEqual(["v ready with 4 tools", "crashing on purpose"]);
  await expect(transport.send({ jsonrpc: "2.0", method: "ping", id: 1 })).rejects.toThrow('server "v" is not running');
});

test("a command that cannot be started rejects start() and says why", async () => {
  const { transport } = transportFor("missing", [], {}, "no-such-command-learn-mcp");
  await expect(transport.start()).rejects.toThrow(/ENOENT/);
  expect(await transport.exited).toMatch(/^could not be started: spawn no-such-command-learn-mcp ENOENT/);
});

test("a transport closed before it started never starts a process", async () => {
  const { transport } = transportFor("late", [fixture("tools.mjs"), "late"]);
  await transport.close();
  await expect(transport.start()).rejects.toThrow('server "late" was closed before it started');
  expect(transport.pid).toBeUndefined();
});

test("close() ends the whole process group, the grandchild a wrapper started too, and says what it SIGKILLed", async () => {
  const { client, transport, lines } = await connected("wrapped", [fixture("wrapper.mjs"), "wrapped", "x"]);
  expect(text(await client.callTool({ name: "x" }))).toBe("wrapped:x"); // answered by the grandchild
  const group = transport.pid!;
  expect(await leftInGroups([group], 0)).toHaveLength(2); // the wrapper and its server, both ignoring SIGTERM
  await Promise.all([client.close(), transport.close()]); // a second close() waits for the first
  expect(await leftInGroups([group])).toEqual([]);
  expect(lines).toContain(`[wrapped] still running 2000 ms after SIGTERM: SIGKILL to its process group ${group}`);
}, 30_000);
