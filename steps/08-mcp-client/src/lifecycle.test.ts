// The handshake on the wire: what is answered before initialize, how versions are negotiated, and what comes after.
// Each test starts its own server, because the handshake happens once per connection.
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test, vi } from "vitest";
import { SUPPORTED_VERSIONS } from "./lifecycle.ts";
import { Wire } from "./test/wire.ts";

vi.setConfig({ testTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const wires: Wire[] = [];
afterEach(async () => {
  for (const wire of wires.splice(0)) expect(await wire.close()).toBe(0);
});

function start(): Wire {
  const wire = new Wire(serverPath, [tmpdir()]);
  wires.push(wire);
  return wire;
}

async function exchange(wire: Wire, message: object): Promise<unknown> {
  wire.send(JSON.stringify({ jsonrpc: "2.0", ...message }));
  return JSON.parse(await wire.nextLine());
}

const initialize = (protocolVersion: unknown, extra = {}) => ({
  id: "init",
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" }, ...extra },
});
const tooEarly = (id: number) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32600, message: "Invalid Request: send initialize first" },
});

describe("before initialize", () => {
  test("refuses every method but ping at once, and knows nothing of server/discover", async () => {
    const wire = start();
    expect(await exchange(wire, { id: 1, method: "tools/list" })).toEqual(tooEarly(1));
    expect(
      await exchange(wire, { id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }),
    ).toEqual(tooEarly(2));
    expect(await exchange(wire, { id: 4, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
    expect(await exchange(wire, { id: 5, method: "server/discover" })).toMatchObject({
      id: 5,
      error: { code: -32601 },
    });
    expect(await exchange(wire, { id: 6, method: "tools/call", params: [] })).toEqual(tooEarly(6));
  });

  test("refuses a batch, since no version that allows one was negotiated", async () => {
    const wire = start();
    wire.send('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
    expect(JSON.parse(await wire.nextLine())).toMatchObject({
      id: null,
      error: { code: -32600, message: "Invalid Request: batches are not supported in this protocol version" },
    });
  });
});

describe("initialize", () => {
  test.each(SUPPORTED_VERSIONS)("answers %s with the same version and the server's info", async (version) => {
    expect(await exchange(start(), initialize(version))).toEqual({
      jsonrpc: "2.0",
      id: "init",
      result: {
        protocolVersion: version,
        capabilities: { tools: {} },
        serverInfo: { name: "learn-mcp-by-hand", version: "0.6.0" },
        instructions: expect.any(String),
      },
    });
  });

  test("offers its latest version to a client that asks for one it does not know", async () => {
    expect(await exchange(start(), initialize("2099-01-01"))).toMatchObject({
      result: { protocolVersion: "2025-11-25" },
    });
  });

  test.each([
    ["no protocolVersion", initialize(undefined)],
    ["a number protocolVersion", initialize(20251125)],
    ["capabilities that are not an object", initialize("2025-11-25", { capabilities: [] })],
    ["an unknown field", initialize("2025-11-25", { constructor: {} })],
  ])("refuses %s with -32602", async (_name, message) => {
    expect(await exchange(start(), message)).toMatchObject({ id: "init", error: { code: -32602 } });
  });

  test("takes notifications/initialized without an answer and notes it in its log", async () => {
    const wire = start();
    await exchange(wire, initialize("2025-11-25"));
    wire.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(await exchange(wire, { id: 1, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    // Closing first: once the server has exited, its whole log has arrived.
    expect(await wire.close()).toBe(0);
    expect(wire.stderr).toContain("[server] the client is initialized");
    expect(wire.stderr).not.toContain("failed");
  });

  test("is answered once; then the methods work, and a second initialize is refused", async () => {
    const wire = start();
    await exchange(wire, initialize("2025-11-25"));
    wire.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    expect(
      await exchange(wire, { id: 1, method: "tools/call", params: { name: "add", arguments: { a: 40, b: 2 } } }),
    ).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "42" }] },
    });
    expect(await exchange(wire, initialize("2025-11-25"))).toEqual({
      jsonrpc: "2.0",
      id: "init",
      error: { code: -32600, message: "Invalid Request: already initialized" },
    });
  });
});
