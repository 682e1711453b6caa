// Wire tests for the JSON-RPC server: exact JSON lines in, exact JSON lines out, one real child process.
// After every error the server must still answer, so each error case ends with a probe request.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Wire } from "./test/wire.ts";

// Every test starts a server under tsx; on a loaded machine that alone can take seconds.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const PROBE = '{"jsonrpc":"2.0","id":"probe","method":"sum","params":{"numbers":[40,2]}}';
const PROBE_REPLY = '{"jsonrpc":"2.0","id":"probe","result":42}';

let wire: Wire;
beforeAll(() => {
  wire = new Wire(serverPath, ["--max-line-bytes", "200"]);
});
afterAll(async () => {
  expect(await wire.close()).toBe(0);
});

async function exchange(line: string): Promise<string> {
  wire.send(line);
  return wire.nextLine();
}

/** Sends `line`, then a probe: the next line must answer the probe, so `line` got no reply. */
async function expectNoReply(line: string): Promise<void> {
  wire.send(line);
  expect(await exchange(PROBE)).toBe(PROBE_REPLY);
}

const request = (id: string, method: string, params: unknown) =>
  `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${JSON.stringify(params)}}`;
const error = (id: string, code: number, message: string) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":${code},"message":${JSON.stringify(message)}}}`;
const SUM_TAKES = 'Invalid params: sum takes {"numbers": [number, ...]}';

describe("requests and notifications", () => {
  test("sum answers with the total and echoes the id", async () => {
    expect(await exchange(request("1", "sum", { numbers: [1, 2, 3.5] }))).toBe('{"jsonrpc":"2.0","id":1,"result":6.5}');
  });

  test.each(["0", '"0"', '"abc"', "-5"])("echoes the id %s exactly as sent", async (id) => {
    expect(await exchange(request(id, "sum", { numbers: [] }))).toBe(`{"jsonrpc":"2.0","id":${id},"result":0}`);
  });

  test.each([
    ['{"jsonrpc":"2.0","method":"sum","params":{"numbers":[1]}}'],
    ['{"jsonrpc":"2.0","method":"nope"}'],
    ['{"jsonrpc":"2.0","method":"sum","params":{"numbers":"x"}}'],
    ["   "],
  ])("gives no reply to %s", async (line) => {
    await expectNoReply(line);
  });

  test("reads a message split across writes and two messages in one write", async () => {
    const line = request("2", "sum", { numbers: [2] });
    wire.child.stdin.write(line.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    wire.child.stdin.write(line.slice(10) + "\n" + request("3", "sum", { numbers: [3] }) + "\n");
    expect(await wire.nextLine()).toBe('{"jsonrpc":"2.0","id":2,"result":2}');
    expect(await wire.nextLine()).toBe('{"jsonrpc":"2.0","id":3,"result":3}');
  });
});

describe("every malformed input gets its error, and the server keeps serving", () => {
  const cases: [string, string, string][] = [
    ["not JSON", '{"jsonrpc":"2.0","id":1,', error("null", -32700, "Parse error")],
    ["a number", "42", error("null", -32600, "Invalid Request: expected an object")],
    ["null", "null", error("null", -32600, "Invalid Request: expected an object")],
    ["no jsonrpc", '{"id":3,"method":"sum"}', error("3", -32600, 'Invalid Request: jsonrpc must be "2.0"')],
    [
      "jsonrpc 1.0",
      '{"jsonrpc":"1.0","id":4,"method":"sum"}',
      error("4", -32600, 'Invalid Request: jsonrpc must be "2.0"'),
    ],
    [
      "an object id",
      '{"jsonrpc":"2.0","id":{},"method":"sum"}',
      error("null", -32600, "Invalid Request: id must be a string or a number"),
    ],
    [
      "a boolean id",
      '{"jsonrpc":"2.0","id":true,"method":"sum"}',
      error("null", -32600, "Invalid Request: id must be a string or a number"),
    ],
    [
      "a null id",
      '{"jsonrpc":"2.0","id":null,"method":"sum"}',
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
      '{"jsonrpc":"2.0","id":7,"method":"sum","params":"1,2"}',
      error("7", -32600, "Invalid Request: params must be an object or an array"),
    ],
    ["unknown method", '{"jsonrpc":"2.0","id":8,"method":"product"}', error("8", -32601, "Method not found: product")],
    [
      "inherited name",
      '{"jsonrpc":"2.0","id":9,"method":"toString"}',
      error("9", -32601, "Method not found: toString"),
    ],
    ["sum without params", '{"jsonrpc":"2.0","id":10,"method":"sum"}', error("10", -32602, SUM_TAKES)],
    ["sum by position", request("11", "sum", [1, 2]), error("11", -32602, SUM_TAKES)],
    ["sum of strings", request("12", "sum", { numbers: ["1"] }), error("12", -32602, SUM_TAKES)],
    [
      "sum over Infinity",
      request("13", "sum", { numbers: [1e308, 1e308] }),
      error("13", -32602, "Invalid params: the sum is not a finite number"),
    ],
    [
      "a line over the limit",
      request("14", "sum", { numbers: Array(100).fill(1) }),
      error("null", -32600, "Invalid Request: message over 200 bytes"),
    ],
  ];

  test.each(cases)("%s", async (_name, line, expected) => {
    expect(await exchange(line)).toBe(expected);
    expect(await exchange(PROBE)).toBe(PROBE_REPLY);
  });

  // JSON.parse makes "__proto__" an own key, so all three must be caught as unknown, not found on Object.prototype.
  test.each(["constructor", "toString", "__proto__"])("refuses the unknown field %s", async (field) => {
    const line = `{"jsonrpc":"2.0","id":15,"method":"sum","params":{"numbers":[1],"${field}":{}}}`;
    const why = `Invalid params: unknown field ${JSON.stringify(field)}; sum takes {"numbers": [number, ...]}`;
    expect(await exchange(line)).toBe(error("15", -32602, why));
  });
});

describe("batches (JSON-RPC 2.0)", () => {
  test("answers with one array in request order, leaving out notifications", async () => {
    const batch = `[${request("1", "sum", { numbers: [1] })},{"jsonrpc":"2.0","method":"sum"},7,${request('"b"', "nope", {})}]`;
    expect(await exchange(batch)).toBe(
      `[{"jsonrpc":"2.0","id":1,"result":1},${error("null", -32600, "Invalid Request: expected an object")},${error('"b"', -32601, "Method not found: nope")}]`,
    );
  });

  test("sends nothing for a batch of notifications", async () => {
    await expectNoReply(
      '[{"jsonrpc":"2.0","method":"sum","params":{"numbers":[1]}},{"jsonrpc":"2.0","method":"nope"}]',
    );
  });

  test("answers an empty batch with a single error", async () => {
    expect(await exchange("[]")).toBe(error("null", -32600, "Invalid Request: empty batch"));
  });

  test("answers a batch that is not valid JSON with a single parse error", async () => {
    expect(await exchange(`[${request("1", "sum", { numbers: [1] })},`)).toBe(error("null", -32700, "Parse error"));
  });
});

describe("limits and start-up", () => {
  test("answers a line over the default 16 MiB once, without buffering it, and keeps serving", async () => {
    const big = new Wire(serverPath);
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

describe("sleep", () => {
  test("answers after the time asked for, and later than a quick request sent after it", async () => {
    wire.send(request("1", "sleep", { ms: 150 }));
    wire.send(request("2", "sum", { numbers: [2] }));
    expect(await wire.nextLine()).toBe('{"jsonrpc":"2.0","id":2,"result":2}');
    expect(await wire.nextLine()).toBe('{"jsonrpc":"2.0","id":1,"result":150}');
  });

  const usage = 'sleep takes {"ms": a whole number from 0 to 10000}';
  test.each([{}, { ms: -1 }, { ms: 1.5 }, { ms: 10_001 }, { ms: "5" }])("refuses %j", async (params) => {
    expect(await exchange(request("3", "sleep", params))).toBe(error("3", -32602, `Invalid params: ${usage}`));
  });

  test("refuses a field it does not know", async () => {
    const why = `Invalid params: unknown field "extra"; ${usage}`;
    expect(await exchange(request("4", "sleep", { ms: 5, extra: 1 }))).toBe(error("4", -32602, why));
  });
});
