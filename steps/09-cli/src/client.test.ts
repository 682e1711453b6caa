// McpClient against a scripted server that misbehaves on purpose (src/fixtures/fake-server.mjs), one way per test.
// Each broken server must end in a clear error within 5 s, with the server stopped, not in a hang or a crash.
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, MAX_PAGES, McpClient } from "./client.ts";
import type { Notification } from "./connection.ts";
import { isRunning } from "./test/processes.ts";

vi.setConfig({ testTimeout: 30_000 });

const fakeServer = fileURLToPath(new URL("./fixtures/fake-server.mjs", import.meta.url));
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close(200)));
});

// Starts the scripted server in `mode`, collecting its notifications and the client's warnings.
function fake(mode: string, timeoutMs = 5000) {
  const notifications: Notification[] = [];
  const warnings: string[] = [];
  const client = new McpClient(process.execPath, [fakeServer, mode], {
    timeoutMs,
    onNotification: (notification) => notifications.push(notification),
    warn: (text) => warnings.push(text),
  });
  clients.push(client);
  return { client, notifications, warnings };
}

const text = (result: { content: { text?: string }[] }) => result.content[0]?.text;

/**
 * Expects `attempt` to fail with `message`, and the server to be gone within 5 s after that. The failure itself is
 * only bounded by the test's timeout: starting Node and writing 17 MiB can take seconds on a loaded machine.
 */
async function expectCutOff(client: McpClient, attempt: Promise<unknown>, message: string | RegExp): Promise<void> {
  await expect(attempt).rejects.toThrow(message);
  const pid = client.pid!;
  for (let waited = 0; waited < 5000 && isRunning(pid); waited += 50) await sleep(50);
  expect(isRunning(pid)).toBe(false);
}

describe("framing and pairing", () => {
  it("rebuilds a response sent in two pieces cut inside a UTF-8 character", async () => {
    expect((await fake("split").client.connect()).instructions).toBe("café crème");
  });

  it("reads two messages that arrive in one chunk, a notification and an answer", async () => {
    const { client, notifications } = fake("joined");
    expect((await client.connect()).serverInfo.name).toBe("fake");
    expect(notifications).toEqual([{ method: "notifications/message", params: { data: "hello" } }]);
  });

  it("skips a stdout line that is not JSON, says so, and goes on", async () => {
    const { client, warnings } = fake("noise");
    expect((await client.connect()).protocolVersion).toBe("2025-11-25");
    expect(warnings).toEqual(["skipped a line that is not JSON: Server listening on stdio... (a stray console.log)"]);
  });

  it("pairs answers that come back out of order", async () => {
    const { client } = fake("reverse");
    await client.connect();
    const both = await Promise.all([
      client.callTool("echo", { text: "first" }),
      client.callTool("echo", { text: "second" }),
    ]);
    expect(both.map(text)).toEqual(["first", "second"]);
  });

  it("turns a JSON-RPC error into a JsonRpcError, and follows nextCursor through every page", async () => {
    const { client } = fake("normal");
    await client.connect();
    await expect(client.callTool("nope")).rejects.toEqual(new JsonRpcError(-32602, "Unknown tool: nope"));
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo", "sleep"]);
  });
});

describe("lifecycle", () => {
  it("sends the handshake, answers ping with {} and an unknown server request with -32601", async () => {
    const { client, notifications } = fake("ping");
    await client.connect();
    while (notifications.length < 4) await sleep(10);
    expect(notifications.map((notification) => (notification.params as { line: string }).line)).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"learn-mcp-client","version":"0.7.0"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":"s1","result":{}}',
      '{"jsonrpc":"2.0","id":"s2","error":{"code":-32601,"message":"Method not found: sampling/createMessage"}}',
    ]);
  });

  it("accepts a server that answers only 2024-11-05, as the servers of older tutorials do", async () => {
    const { client } = fake("old-version");
    expect((await client.connect()).protocolVersion).toBe("2024-11-05");
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo", "sleep"]);
  });

  it("refuses a protocol version it does not know, and stops the server", async () => {
    const { client } = fake("future-version");
    await expectCutOff(
      client,
      client.connect(),
      "server chose protocol version 2099-01-01; this client supports 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05",
    );
  });
});

describe("a server that misbehaves is cut off", () => {
  it.each([
    ["floods stdout without a newline", "flood", "the server sent a line over 16777216 bytes"],
    ["closes its stdout but keeps running", "close-stdout", "server closed its output but is still running"],
    [
      "answers with an error that is not an object",
      "bad-error",
      'the server answered with a malformed error: {"jsonrpc":"2.0","id":1,"error":"no"}',
    ],
  ])("when it %s", async (_name, mode, message) => {
    const { client } = fake(mode);
    await expectCutOff(client, client.connect(), message);
  });

  it.each([
    [
      "a null result",
      "null-result",
      () => "tools/call returned a malformed result: null",
      (c: McpClient) => c.callTool("echo", { text: "x" }),
    ],
    [
      "tools without names",
      "bad-tools",
      () => 'tools/list returned a malformed result: {"tools":[{"description":"no name"}]}',
      (c: McpClient) => c.listTools(),
    ],
    [
      "pages that never end",
      "endless-pages",
      () => `tools/list went past ${MAX_PAGES} pages; giving up`,
      (c: McpClient) => c.listTools(),
    ],
    [
      "a cursor handed out twice",
      "repeat-cursor",
      () => 'tools/list repeated the cursor "again"',
      (c: McpClient) => c.listTools(),
    ],
  ])("rejects %s with a clear message", async (_name, mode, message, attempt) => {
    const { client } = fake(mode);
    await client.connect();
    await expect(attempt(client)).rejects.toThrow(message());
  });

  it("lists a page of 200,000 tools without overflowing the stack", async () => {
    const { client } = fake("huge-page");
    await client.connect();
    const tools = await client.listTools();
    expect(tools).toHaveLength(200_000);
    expect(tools.at(-1)?.name).toBe("tool_199999");
  });

  it("times out one request, reports its late answer and keeps working", async () => {
    const { client, warnings } = fake("normal");
    await client.connect();
    await expect(client.callTool("sleep", { ms: 300 }, { timeoutMs: 100 })).rejects.toThrow(
      "tools/call timed out after 100 ms",
    );
    await sleep(400);
    expect(warnings).toEqual([expect.stringMatching(/^no pending request for \{"jsonrpc":"2.0","id":2,/)]);
    expect(text(await client.callTool("echo", { text: "still here" }))).toBe("still here");
  });
});
