import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, McpClient } from "./client.ts";
import type { Notification } from "./connection.ts";

const fakeServer = fileURLToPath(new URL("./fixtures/fake-server.mjs", import.meta.url));
const clients: McpClient[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
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

describe("McpClient framing", () => {
  it("rebuilds a response sent in two pieces cut inside a UTF-8 character", async () => {
    const { client } = fake("split");
    expect((await client.connect()).instructions).toBe("café crème");
  });

  it("reads two messages that arrive in one chunk", async () => {
    const { client, notifications } = fake("joined");
    expect((await client.connect()).serverInfo.name).toBe("fake");
    expect(notifications).toEqual([{ method: "notifications/message", params: { data: "hello" } }]);
  });

  it("reports a non-JSON stdout line on stderr and skips it", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const client = new McpClient(process.execPath, [fakeServer, "noise"]);
    clients.push(client);
    expect((await client.connect()).protocolVersion).toBe("2025-11-25");
    expect(stderr).toHaveBeenCalledWith(
      "[client] skipped a stdout line that is not JSON-RPC: Server listening on stdio... (a stray console.log)\n",
    );
  });
});

describe("McpClient requests", () => {
  it("pairs responses to requests by id when they come back out of order", async () => {
    const { client } = fake("reverse");
    await client.connect();
    const [first, second] = await Promise.all([
      client.callTool("echo", { text: "first" }),
      client.callTool("echo", { text: "second" }),
    ]);
    expect([text(first), text(second)]).toEqual(["first", "second"]);
  });

  it("times out one request, ignores its late answer and keeps working", async () => {
    const { client, warnings } = fake("normal");
    await client.connect();
    const started = Date.now();
    await expect(client.callTool("sleep", { ms: 300 }, { timeoutMs: 100 })).rejects.toThrow("tools/call timed out after 100 ms");
    expect(Date.now() - started).toBeLessThan(280);
    await sleep(400);
    expect(warnings).toEqual(["ignored a response to no pending request: id 2"]);
    expect(text(await client.callTool("echo", { text: "still here" }))).toBe("still here");
  });

  it("turns a JSON-RPC error response into a JsonRpcError with its code", async () => {
    const { client } = fake("normal");
    await client.connect();
    const error = await client.callTool("nope").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32602, message: "Unknown tool: nope" });
  });

  it("follows nextCursor through every page of tools/list", async () => {
    const { client } = fake("normal");
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(["echo", "sleep"]);
  });
});

describe("McpClient lifecycle", () => {
  it("sends the handshake, answers ping with {} and an unknown server request with -32601", async () => {
    const { client, notifications } = fake("ping");
    await client.connect();
    while (notifications.length < 4) await sleep(10);
    expect(notifications.map((notification) => (notification.params as { line: string }).line)).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"learn-mcp-client","version":"0.4.0"}}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":"s1","result":{}}',
      '{"jsonrpc":"2.0","id":"s2","error":{"code":-32601,"message":"Method not found: sampling/createMessage"}}',
    ]);
  });

  it("refuses a protocol version it does not support, and stops the server", async () => {
    const { client } = fake("old-version");
    await expect(client.connect()).rejects.toThrow(
      "server chose protocol version 2024-11-05; this client supports 2025-11-25, 2025-06-18",
    );
    expect(() => process.kill(client.pid!, 0)).toThrow(/ESRCH/);
  });
});
