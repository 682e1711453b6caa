// Wire tests for the JSON-RPC server: exact JSON lines in, exact JSON lines out, one real child process.
// After every error the server must still answer, so each error case ends with a probe request.
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Wire } from "./test/wire.ts";

// Every test starts a server under tsx; on a loaded machine that alone can take seconds.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const PROBE = '{"jsonrpc":"2.0","id":"probe","method":"ping"}';
const PROBE_REPLY = '{"jsonrpc":"2.0","id":"probe","result":{}}';

let wire: Wire;
beforeAll(async () => {
  // These tests write no file; the sandbox is only there because the server needs one.
  wire = new Wire(serverPath, ["--max-line-bytes", "200", tmpdir()]);
  await wire.initialize();
});
afterAll(async () => {
  expect(await wire.close()).toBe(0);
});

async function exchange(line: string, on = wire): Promise<string> {
  on.send(line);
  return on.nextLine();
}

/** Sends `line`, then a probe: the next line must answer the probe, so `line` got no reply. */
async function expectNoReply(line: string, on = wire): Promise<void> {
  on.send(line);
  expect(await exchange(PROBE, on)).toBe(PROBE_REPLY);
}

const request = (id: string, method: string, params: unknown) =>
  `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`;
const error = (id: string, code: number, message: string) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":${code},"message":${JSON.stringify(message)}}}`;
const CALL_TAKES = "Invalid params: tools/call takes {name: string, arguments?: object}";
const add = (a: unknown, b: unknown) => ({ name: "add", arguments: { a, b } });

describe("requests and notifications", () => {
  test.each(["0", '"0"', '"abc"', "-5"])("echoes the id %s exactly as sent", async (id) => {
    expect(await exchange(request(id, "ping", {}))).toBe(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
  });

  test.each([
    ['{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}'],
    ['{"jsonrpc":"2.0","method":"nope"}'],
    ['{"jsonrpc":"2.0","method":"tools/call","params":{"name":"nope"}}'],
    ["   "],
  ])("gives no reply to %s", async (line) => {
    await expectNoReply(line);
  });

  test("reads a message split across writes and two messages in one write", async () => {
    const line = request("2", "ping", {});
    wire.child.stdin.write(line.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    wire.child.stdin.write(line.slice(10) + "\n" + request("3", "ping", {}) + "\n");
    expect(await wire.nextLine()).toBe('{"jsonrpc":"2.0","id":2,"result":{}}');
    expect(await wire.nextLine()).toBe('{"jsonrpc":"2.0","id":3,"result":{}}');
  });
});

describe("every malformed input gets its error, and the server keeps serving", () => {
  const cases: [string, string, string][] = [
    ["not JSON", '{"jsonrpc":"2.0","id":1,', error("null", -32700, "Parse error")],
    ["a number", "42", error("null", -32600, "Invalid Request: expected an object")],
    ["null", "null", error("null", -32600, "Invalid Request: expected an object")],
    ["no jsonrpc", '{"id":3,"method":"ping"}', error("3", -32600, 'Invalid Request: jsonrpc must be "2.0"')],
    [
      "jsonrpc 1.0",
      '{"jsonrpc":"1.0","id":4,"method":"ping"}',
      error("4", -32600, 'Invalid Request: jsonrpc must be "2.0"'),
    ],
    [
      "an object id",
      '{"jsonrpc":"2.0","id":{},"method":"ping"}',
      error("null", -32600, "Invalid Request: id must be a string or a number"),
    ],
    [
      "a boolean id",
      '{"jsonrpc":"2.0","id":true,"method":"ping"}',
      error("null", -32600, "Invalid Request: id must be a string or a number"),
    ],
    [
      "a null id",
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      error("null", -32600, "Invalid Request: id must be a string or a number"),
    ],
    ["no method", '{"jsonrpc":"2.0","id":5}', error("5", -32600, "Invalid Request: method must be a string")],
    [
      "a number method",
      '{"jsonrpc":"2.0","id":6,"method":42}',
      error("6", -32600, "Invalid Request: method must be a string"),
    ],
    [
      "string params",
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"add"}',
      error("7", -32600, "Invalid Request: params must be an object or an array"),
    ],
    ["unknown method", '{"jsonrpc":"2.0","id":8,"method":"product"}', error("8", -32601, "Method not found: product")],
    [
      "inherited name",
      '{"jsonrpc":"2.0","id":9,"method":"toString"}',
      error("9", -32601, "Method not found: toString"),
    ],
    ["tools/call without params", '{"jsonrpc":"2.0","id":10,"method":"tools/call"}', error("10", -32602, CALL_TAKES)],
    ["tools/call by position", request("11", "tools/call", ["add", {}]), error("11", -32602, CALL_TAKES)],
    ["a number as the tool name", request("12", "tools/call", { name: 1 }), error("12", -32602, CALL_TAKES)],
    [
      "a line over the limit",
      request("14", "tools/call", add("1".repeat(100), "2".repeat(100))),
      error("null", -32600, "Invalid Request: message over 200 bytes"),
    ],
  ];

  test.each(cases)("%s", async (_name, line, expected) => {
    expect(await exchange(line)).toBe(expected);
    expect(await exchange(PROBE)).toBe(PROBE_REPLY);
  });

  // JSON.parse makes "__proto__" an own key, so all three must be caught as unknown, not found on Object.prototype.
  test.each(["constructor", "toString", "__proto__"])("refuses the unknown field %s", async (field) => {
    const line = `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"add","${field}":{}}}`;
    const why = `Invalid params: unknown field ${JSON.stringify(field)}; tools/call takes {name: string, arguments?: object}`;
    expect(await exchange(line)).toBe(error("15", -32602, why));
  });
});

// MCP allowed batches in 2025-03-26 only, so these run on a session that negotiated it.
describe("batches (JSON-RPC 2.0)", () => {
  let old: Wire;
  beforeAll(async () => {
    old = new Wire(serverPath, [tmpdir()]);
    await old.initialize("2025-03-26");
  });
  afterAll(async () => {
    expect(await old.close()).toBe(0);
  });

  test("answers with one array in request order, leaving out notifications", async () => {
    const batch = `[${request("1", "tools/call", add(1, 2))},{"jsonrpc":"2.0","method":"ping"},7,${request('"b"', "nope", {})}]`;
    const three = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"3"}]}}';
    expect(await exchange(batch, old)).toBe(
      `[${three},${error("null", -32600, "Invalid Request: expected an object")},${error('"b"', -32601, "Method not found: nope")}]`,
    );
  });

  test("sends nothing for a batch of notifications", async () => {
    await expectNoReply('[{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","method":"nope"}]', old);
  });

  test("answers an empty batch with a single error", async () => {
    expect(await exchange("[]", old)).toBe(error("null", -32600, "Invalid Request: empty batch"));
  });

  test("answers a batch that is not valid JSON with a single parse error", async () => {
    expect(await exchange(`[${request("1", "ping", {})},`, old)).toBe(error("null", -32700, "Parse error"));
  });
});

describe("limits and start-up", () => {
  test("answers a line over the default 16 MiB once, without buffering it, and keeps serving", async () => {
    const big = new Wire(serverPath, [tmpdir()]);
    await big.initialize();
    big.child.stdin.write(Buffer.alloc(16 * 1024 * 1024 + 1, " "));
    // The error comes before the line's newline was ever sent: the server does not wait for the end.
    expect(await big.nextLine()).toBe(error("null", -32600, "Invalid Request: message over 16777216 bytes"));
    big.child.stdin.write(`${"x".repeat(1000)}\n${PROBE}\n`);
    expect(await big.nextLine()).toBe(PROBE_REPLY);
    expect(await big.close()).toBe(0);
  });

  test.each([[["--max-line-bytes", "0"]], [["--max-line-bytes", "lots"]], [["--verbose"]]])(
    "refuses %j with usage and exit 2",
    async (args) => {
      const bad = new Wire(serverPath, args);
      expect(await bad.close()).toBe(2);
      expect(bad.stderr).toContain("usage: server.ts [--max-line-bytes N]");
    },
  );
});
