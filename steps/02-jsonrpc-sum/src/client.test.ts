// Tests for JsonRpcClient against the real step 02 server: concurrency, id matching, errors, a closed server.
// createFile waits on the disk while sum answers at once, so the server really does answer out of order.
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { JsonRpcClient } from "./client.ts";
import { JsonRpcError } from "./jsonrpc.ts";
import { spawnServer } from "./wire.ts";

// Every test starts a server under tsx; on a loaded machine that alone can take seconds.
vi.setConfig({ testTimeout: 20_000, hookTimeout: 20_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
let sandbox: string;
let child: ReturnType<typeof spawnServer>;
let client: JsonRpcClient;
let sent: string[];

beforeEach(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-02-client-"));
  child = spawnServer(serverPath, [sandbox]);
  child.stderr.resume();
  sent = [];
  client = new JsonRpcClient(child.stdin, child.stdout, (direction, line) => direction === "->" && sent.push(line));
});

afterEach(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    child.stdin.end();
    await once(child, "close");
  }
  await rm(sandbox, { recursive: true, force: true });
});

test("keeps requests in flight and matches each answer by id, not by order", async () => {
  const settled: string[] = [];
  const track = <T>(name: string, promise: Promise<T>) => promise.then((value) => (settled.push(name), value));
  child.stdin.cork();
  const created = track("createFile", client.request("createFile", { path: "a.txt", content: "abc" }));
  const summed = track("sum", client.request("sum", { numbers: [1, 2, 3] }));
  child.stdin.uncork();
  expect(await Promise.all([created, summed])).toEqual([{ path: "a.txt", bytes: 3 }, 6]);
  expect(settled).toEqual(["sum", "createFile"]);
});

test("counts ids from 0, and keeps 0 and \"0\" apart", async () => {
  const first = client.request("sum", { numbers: [1] });
  const zeroString = client.request("sum", { numbers: [2] }, "0");
  expect(await Promise.all([first, zeroString])).toEqual([1, 2]);
  expect(sent).toEqual([
    '{"jsonrpc":"2.0","id":0,"method":"sum","params":{"numbers":[1]}}',
    '{"jsonrpc":"2.0","id":"0","method":"sum","params":{"numbers":[2]}}',
  ]);
});

test("rejects with the server's error code and message", async () => {
  const failed = client.request("product", { numbers: [2, 3] });
  await expect(failed).rejects.toBeInstanceOf(JsonRpcError);
  await expect(failed).rejects.toMatchObject({ code: -32601, message: "Method not found: product" });
});

test("refuses an id that is already in flight, and the first request still succeeds", async () => {
  const first = client.request("sum", { numbers: [5] }, "same");
  await expect(client.request("sum", { numbers: [6] }, "same")).rejects.toThrow('id "same" is already in flight');
  expect(await first).toBe(5);
  expect(await client.request("sum", { numbers: [7] }, "same")).toBe(7);
});

test("sends a notification without an id and expects nothing back", async () => {
  client.notify("sum", { numbers: [1] });
  expect(await client.request("sum", { numbers: [2] })).toBe(2);
  expect(sent[0]).toBe('{"jsonrpc":"2.0","method":"sum","params":{"numbers":[1]}}');
});

test("fails pending and later requests once the server is gone", async () => {
  const pending = client.request("sum", { numbers: [1] });
  child.kill("SIGKILL");
  await expect(pending).rejects.toThrow("the server closed its output");
  await expect(client.request("sum", { numbers: [2] })).rejects.toThrow("the server closed its output");
});
