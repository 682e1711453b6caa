// Wire tests for step 03's MCP server: exact JSON lines for the lifecycle, the tools and every error.
// Each describe block runs its own server, since a session can be initialized only once.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Wire } from "./wire.ts";

// Every test starts a server under tsx; on a loaded machine that alone can take seconds.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 20_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
let sandbox: string;
const wires: Wire[] = [];

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-03-test-"));
});
afterAll(async () => {
  await Promise.all(wires.map(async (wire) => expect(await wire.close()).toBe(0)));
  await rm(sandbox, { recursive: true, force: true });
});

function start(): Wire {
  const wire = new Wire(serverPath, [sandbox]);
  wires.push(wire);
  return wire;
}
async function exchange(wire: Wire, message: unknown): Promise<string> {
  wire.send(typeof message === "string" ? message : JSON.stringify(message));
  return wire.nextLine();
}
const line = (message: object) => JSON.stringify({ jsonrpc: "2.0", ...message });
const initialize = (id: number, protocolVersion: string) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1.0.0" } },
});
const ping = (id: number | string) => ({ jsonrpc: "2.0", id, method: "ping" });
const call = (id: number, name: unknown, args?: unknown) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const text = (id: number, value: string, isError = false) =>
  line({ id, result: { content: [{ type: "text", text: value }], ...(isError && { isError }) } });
const error = (id: number | null, code: number, message: string) => line({ id, error: { code, message } });

/** Sends `message`, then a ping: the next line must answer the ping, so `message` got no reply. */
async function expectNoReply(wire: Wire, message: unknown): Promise<void> {
  wire.send(JSON.stringify(message));
  expect(await exchange(wire, ping("after"))).toBe(line({ id: "after", result: {} }));
}

describe("before initialize", () => {
  let wire: Wire;
  beforeAll(() => void (wire = start()));

  test("answers ping, and every other request with an error at once", async () => {
    expect(await exchange(wire, ping(1))).toBe(line({ id: 1, result: {} }));
    expect(await exchange(wire, { jsonrpc: "2.0", id: 2, method: "tools/list" })).toBe(error(2, -32600, "Invalid Request: send initialize first"));
    expect(await exchange(wire, call(3, "add", { a: 1, b: 2 }))).toBe(error(3, -32600, "Invalid Request: send initialize first"));
    expect(await exchange(wire, { jsonrpc: "2.0", id: 4, method: "server/discover", params: {} })).toBe(
      error(4, -32601, "Method not found: server/discover"),
    );
  });

  test("refuses a batch, since no revision that allows one has been negotiated", async () => {
    expect(await exchange(wire, [ping(5)])).toBe(error(null, -32600, "Invalid Request: batches are not supported in this protocol version"));
  });

  test("rejects initialize without a protocolVersion", async () => {
    const bad = { jsonrpc: "2.0", id: 6, method: "initialize", params: { capabilities: {} } };
    expect(await exchange(wire, bad)).toBe(error(6, -32602, "Invalid params: initialize needs a string protocolVersion"));
  });
});

describe("the handshake", () => {
  let wire: Wire;
  beforeAll(() => void (wire = start()));

  test("answers initialize with the exact result, then takes the initialized notification silently", async () => {
    expect(await exchange(wire, initialize(1, "2025-11-25"))).toBe(
      line({
        id: 1,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "learn-mcp-03", version: "0.1.0" },
          instructions: "Tools: add and echo; createFile writes inside one sandbox folder; get_current_time takes an IANA time zone.",
        },
      }),
    );
    await expectNoReply(wire, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect(wire.stderr).toContain("client asked for 2025-11-25, answering 2025-11-25");
  });

  test("refuses a second initialize", async () => {
    expect(await exchange(wire, initialize(2, "2025-06-18"))).toBe(error(2, -32600, "Invalid Request: already initialized"));
  });
});

describe("version negotiation", () => {
  test.each([
    ["2025-11-25", "2025-11-25", false],
    ["2025-06-18", "2025-06-18", false],
    ["2025-03-26", "2025-03-26", true],
    ["2024-11-05", "2024-11-05", false],
    ["2024-10-07", "2025-11-25", false],
    ["1999-01-01", "2025-11-25", false],
  ])("a client asking for %s gets %s; batches accepted: %s", async (asked, answered, batches) => {
    const wire = start();
    const reply = JSON.parse(await exchange(wire, initialize(1, asked)));
    expect(reply.result.protocolVersion).toBe(answered);
    const batchReply = await exchange(wire, [ping(2), { jsonrpc: "2.0", method: "notifications/initialized" }]);
    const expected = batches
      ? `[${line({ id: 2, result: {} })}]`
      : error(null, -32600, "Invalid Request: batches are not supported in this protocol version");
    expect(batchReply).toBe(expected);
  });
});

describe("2025-03-26 batches", () => {
  let wire: Wire;
  beforeAll(async () => {
    wire = start();
    await exchange(wire, initialize(1, "2025-03-26"));
  });

  test("answers a batch with one array, in order, leaving out notifications", async () => {
    const batch = [call(2, "add", { a: 1, b: 2 }), { jsonrpc: "2.0", method: "notifications/initialized" }, call(3, "nope")];
    expect(await exchange(wire, batch)).toBe(`[${text(2, "3")},${error(3, -32602, "Invalid params: unknown tool nope")}]`);
  });

  test("sends nothing for a batch of notifications, and one error for an empty batch", async () => {
    await expectNoReply(wire, [{ jsonrpc: "2.0", method: "notifications/initialized" }]);
    expect(await exchange(wire, [])).toBe(error(null, -32600, "Invalid Request: empty batch"));
  });
});

describe("tools", () => {
  let wire: Wire;
  beforeAll(async () => {
    wire = start();
    await exchange(wire, initialize(1, "2025-11-25"));
    wire.send(line({ method: "notifications/initialized" }));
  });

  test("lists every tool with its inputSchema", async () => {
    const reply = JSON.parse(await exchange(wire, { jsonrpc: "2.0", id: 2, method: "tools/list" }));
    expect(reply.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["add", "echo", "createFile", "get_current_time"]);
    expect(reply.result.tools[0]).toEqual({
      name: "add",
      description: "Adds two numbers and returns the sum.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
    });
    expect(reply.result.tools[3].inputSchema).toEqual({ type: "object", properties: { timeZone: { type: "string" } } });
  });

  test("calls add and echo", async () => {
    expect(await exchange(wire, call(3, "add", { a: 2, b: 40 }))).toBe(text(3, "42"));
    expect(await exchange(wire, call(4, "add", { a: 0.5, b: -2 }))).toBe(text(4, "-1.5"));
    expect(await exchange(wire, call(5, "echo", { message: "héllo" }))).toBe(text(5, "héllo"));
  });

  test.each([
    ["a string for a number", "add", { a: "2", b: 40 }, 'Invalid arguments for add: "a" must be a number, got string'],
    ["a missing field", "add", { a: 2 }, 'Invalid arguments for add: "b" is required'],
    ["no arguments at all", "add", undefined, 'Invalid arguments for add: "a" is required'],
    ["an unexpected field", "add", { a: 1, b: 2, c: 3 }, 'Invalid arguments for add: "c" is not an expected field (expected: a, b)'],
    ["null for a string", "echo", { message: null }, 'Invalid arguments for echo: "message" must be a string, got null'],
    ["a number for a time zone", "get_current_time", { timeZone: 1 }, 'Invalid arguments for get_current_time: "timeZone" must be a string, got number'],
  ])("answers %s with an isError result that names the field", async (_name, tool, args, message) => {
    expect(await exchange(wire, call(6, tool, args))).toBe(text(6, message, true));
  });

  test("tells the time in a given zone, and fails as a result for an unknown zone", async () => {
    const reply = JSON.parse(await exchange(wire, call(7, "get_current_time", { timeZone: "UTC" })));
    const [, stamp] = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC$/.exec(reply.result.content[0].text) ?? [];
    expect(Math.abs(Date.parse(`${stamp}Z`) - Date.now())).toBeLessThan(5000);
    expect(await exchange(wire, call(8, "get_current_time", { timeZone: "Mars/Olympus_Mons" }))).toBe(
      text(8, "Unknown time zone: Mars/Olympus_Mons (expected an IANA name such as Europe/Paris)", true),
    );
  });

  test.each([
    ["no params", { jsonrpc: "2.0", id: 9, method: "tools/call" }, "Invalid params: tools/call needs a string name"],
    ["a number name", call(9, 42, {}), "Invalid params: tools/call needs a string name"],
    ["array arguments", call(9, "add", [2, 40]), "Invalid params: tools/call arguments must be an object"],
    ["null arguments", call(9, "add", null), "Invalid params: tools/call arguments must be an object"],
    ["an unknown tool", call(9, "multiply", { a: 2, b: 3 }), "Invalid params: unknown tool multiply"],
  ])("answers a call with %s with -32602 and keeps serving", async (_name, message, expected) => {
    expect(await exchange(wire, message)).toBe(error(9, -32602, expected));
    expect(await exchange(wire, ping(10))).toBe(line({ id: 10, result: {} }));
  });

  test("refuses a batch under 2025-11-25", async () => {
    expect(await exchange(wire, [ping(11)])).toBe(error(null, -32600, "Invalid Request: batches are not supported in this protocol version"));
  });

  test("createFile writes inside the sandbox and refuses the ways out as isError results", async () => {
    expect(await exchange(wire, call(12, "createFile", { path: "notes.txt", content: "café" }))).toBe(text(12, "Wrote 5 bytes to notes.txt"));
    expect(await readFile(path.join(sandbox, "notes.txt"), "utf8")).toBe("café");
    const outside = await mkdtemp(path.join(tmpdir(), "learn-mcp-03-outside-"));
    await symlink(outside, path.join(sandbox, "out"));
    await symlink(path.join(outside, "new.txt"), path.join(sandbox, "dangling"));
    expect(await exchange(wire, call(13, "createFile", { path: "out/x.txt", content: "x" }))).toBe(
      text(13, "createFile refused out/x.txt: path leads outside the sandbox", true),
    );
    expect(await exchange(wire, call(14, "createFile", { path: "dangling", content: "x" }))).toBe(
      text(14, "createFile refused dangling: path names a symbolic link", true),
    );
    expect(await exchange(wire, call(15, "createFile", { path: "../x.txt", content: "x" }))).toBe(
      text(15, 'createFile refused ../x.txt: path must not contain ".."', true),
    );
    expect(existsSync(path.join(outside, "x.txt")) || existsSync(path.join(outside, "new.txt"))).toBe(false);
    await rm(outside, { recursive: true, force: true });
  });

  test("hides an internal failure's details from the caller and logs them to stderr", async () => {
    expect(await exchange(wire, call(16, "createFile", { path: "notes.txt/inner.txt", content: "x" }))).toBe(
      text(16, "createFile failed with an internal error", true),
    );
    expect(wire.stderr).toContain("ENOTDIR");
  });
});
