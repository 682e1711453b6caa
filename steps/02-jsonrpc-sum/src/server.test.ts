// Wire tests for step 02's server: exact JSON lines in, exact JSON lines out, one real child process.
// After every error the server must still answer, so each error case ends with a probe request.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Wire } from "./wire.ts";

// Every test starts a server under tsx; on a loaded machine that alone can take seconds.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 20_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const PROBE = '{"jsonrpc":"2.0","id":"probe","method":"sum","params":{"numbers":[40,2]}}';
const PROBE_REPLY = '{"jsonrpc":"2.0","id":"probe","result":42}';

let sandbox: string;
let outside: string;
let wire: Wire;

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-02-test-"));
  outside = await mkdtemp(path.join(tmpdir(), "learn-mcp-02-outside-"));
  wire = new Wire(serverPath, [sandbox]);
});

afterAll(async () => {
  expect(await wire.close()).toBe(0);
  await rm(sandbox, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
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
    ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":4,"method":"sum"}', error("4", -32600, 'Invalid Request: jsonrpc must be "2.0"')],
    ["an object id", '{"jsonrpc":"2.0","id":{},"method":"sum"}', error("null", -32600, "Invalid Request: id must be a string or a number")],
    ["a boolean id", '{"jsonrpc":"2.0","id":true,"method":"sum"}', error("null", -32600, "Invalid Request: id must be a string or a number")],
    ["a null id", '{"jsonrpc":"2.0","id":null,"method":"sum"}', error("null", -32600, "Invalid Request: id must be a string or a number")],
    ["no method", '{"jsonrpc":"2.0","id":5}', error("5", -32600, "Invalid Request: method must be a string")],
    ["a number method", '{"jsonrpc":"2.0","id":6,"method":42}', error("6", -32600, "Invalid Request: method must be a string")],
    ["string params", '{"jsonrpc":"2.0","id":7,"method":"sum","params":"1,2"}', error("7", -32600, "Invalid Request: params must be an object or an array")],
    ["unknown method", '{"jsonrpc":"2.0","id":8,"method":"product"}', error("8", -32601, "Method not found: product")],
    ["inherited name", '{"jsonrpc":"2.0","id":9,"method":"toString"}', error("9", -32601, "Method not found: toString")],
    ["sum without params", '{"jsonrpc":"2.0","id":10,"method":"sum"}', error("10", -32602, 'Invalid params: sum takes {"numbers": [number, ...]}')],
    ["sum by position", request("11", "sum", [1, 2]), error("11", -32602, 'Invalid params: sum takes {"numbers": [number, ...]}')],
    ["sum of strings", request("12", "sum", { numbers: ["1"] }), error("12", -32602, 'Invalid params: sum takes {"numbers": [number, ...]}')],
    ["createFile without content", request("13", "createFile", { path: "a.txt" }), error("13", -32602, 'Invalid params: createFile takes {"path": string, "content": string}')],
  ];

  test.each(cases)("%s", async (_name, line, expected) => {
    expect(await exchange(line)).toBe(expected);
    expect(await exchange(PROBE)).toBe(PROBE_REPLY);
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
    await expectNoReply('[{"jsonrpc":"2.0","method":"sum","params":{"numbers":[1]}},{"jsonrpc":"2.0","method":"nope"}]');
  });

  test("answers an empty batch with a single error", async () => {
    expect(await exchange("[]")).toBe(error("null", -32600, "Invalid Request: empty batch"));
  });

  test("answers a batch that is not valid JSON with a single parse error", async () => {
    expect(await exchange(`[${request("1", "sum", { numbers: [1] })},`)).toBe(error("null", -32700, "Parse error"));
  });
});

describe("createFile stays inside the sandbox", () => {
  const create = (id: number, filePath: string, content = "x") => exchange(request(`${id}`, "createFile", { path: filePath, content }));
  const refused = (id: number, why: string) => error(`${id}`, -32602, `Invalid params: ${why}`);

  test("writes a file and reports the bytes written", async () => {
    expect(await create(1, "notes.txt", "café\n")).toBe('{"jsonrpc":"2.0","id":1,"result":{"path":"notes.txt","bytes":6}}');
    expect(await readFile(path.join(sandbox, "notes.txt"), "utf8")).toBe("café\n");
  });

  test("writes into a subfolder, through a symlink that stays inside, and replaces a file", async () => {
    await mkdir(path.join(sandbox, "sub"));
    await symlink(path.join(sandbox, "sub"), path.join(sandbox, "inner-link"));
    expect(await create(2, "sub/a.txt", "one")).toBe('{"jsonrpc":"2.0","id":2,"result":{"path":"sub/a.txt","bytes":3}}');
    expect(await create(3, "inner-link/a.txt", "two!")).toBe('{"jsonrpc":"2.0","id":3,"result":{"path":"inner-link/a.txt","bytes":4}}');
    expect(await readFile(path.join(sandbox, "sub", "a.txt"), "utf8")).toBe("two!");
  });

  test.each([
    ["an absolute path", "/tmp/evil.txt", "path must be relative to the sandbox"],
    ["a .. segment", "../evil.txt", 'path must not contain ".."'],
    ["a .. that comes back", "sub/../evil.txt", 'path must not contain ".."'],
    ["an empty path", "", "path must not be empty"],
    ["a missing parent folder", "no/such/folder.txt", "parent folder does not exist"],
    ["the sandbox itself", ".", "path leads outside the sandbox"],
  ])("refuses %s", async (_name, filePath, why) => {
    expect(await create(4, filePath)).toBe(refused(4, why));
  });

  test("refuses a folder symlink to outside, made after the server started", async () => {
    await symlink(outside, path.join(sandbox, "out"));
    expect(await create(5, "out/evil.txt")).toBe(refused(5, "path leads outside the sandbox"));
    expect(existsSync(path.join(outside, "evil.txt"))).toBe(false);
  });

  test("refuses a symlink to an outside file and leaves that file alone", async () => {
    await writeFile(path.join(outside, "target.txt"), "original");
    await symlink(path.join(outside, "target.txt"), path.join(sandbox, "file-link"));
    expect(await create(6, "file-link", "overwritten")).toBe(refused(6, "path names a symbolic link"));
    expect(await readFile(path.join(outside, "target.txt"), "utf8")).toBe("original");
  });

  test("refuses a dangling symlink and creates nothing where it points", async () => {
    await symlink(path.join(outside, "new.txt"), path.join(sandbox, "dangling"));
    expect(await create(7, "dangling")).toBe(refused(7, "path names a symbolic link"));
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
  });

  test.each([
    ["ENOTDIR", "plain.txt/inner.txt"],
    ["EISDIR", "folder"],
  ])("turns %s into a bare internal error and logs the details to stderr", async (code, filePath) => {
    // Both fail for root too, unlike a permission error.
    await writeFile(path.join(sandbox, "plain.txt"), "");
    await mkdir(path.join(sandbox, "folder"), { recursive: true });
    expect(await create(8, filePath)).toBe(error("8", -32603, "Internal error"));
    expect(wire.stderr).toContain(code);
    expect(await exchange(PROBE)).toBe(PROBE_REPLY);
  });
});

describe("startup", () => {
  test.each([
    ["no sandbox argument", [], "usage: server.ts <sandbox-folder>"],
    ["a sandbox that does not exist", ["/no/such/folder"], "ENOENT"],
  ])("exits with an error on %s", async (_name, args, logged) => {
    const bad = new Wire(serverPath, args);
    expect(await bad.close()).not.toBe(0);
    expect(bad.stderr).toContain(logged);
  });
});
