// The client's pairing, timeouts and failures, against raw lines written by the test.
// A PassThrough pair stands where a server's pipes would be, so a test can send exactly the line it means to.
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { Connection, type ConnectionOptions } from "./connection.ts";
import { JsonRpcError } from "./jsonrpc.ts";

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

/** A connection to a pair of streams the test controls: what the client wrote, and a way to answer. */
function fakeServer(timeoutMs = 1000, options: ConnectionOptions = {}) {
  const toServer = new PassThrough();
  const fromServer = new PassThrough();
  const sent: string[] = [];
  const warnings: string[] = [];
  toServer.on("data", (chunk: Buffer) => sent.push(...chunk.toString().split("\n").filter(Boolean)));
  const connection = new Connection(toServer, fromServer, {
    timeoutMs,
    warn: (text) => warnings.push(text),
    ...options,
  });
  stops.push(() => fromServer.end());
  return { connection, sent, warnings, answer: (line: string | Buffer) => fromServer.write(line) };
}

describe("against raw lines", () => {
  it("numbers requests from 1, sends notifications without an id, and resolves by id", async () => {
    const { connection, sent, answer } = fakeServer();
    const first = connection.request("a", { x: 1 });
    const second = connection.request("b");
    connection.notify("c");
    expect(sent).toEqual([
      '{"jsonrpc":"2.0","id":1,"method":"a","params":{"x":1}}',
      '{"jsonrpc":"2.0","id":2,"method":"b"}',
      '{"jsonrpc":"2.0","method":"c"}',
    ]);
    answer(
      '{"jsonrpc":"2.0","id":2,"result":"two"}\n{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad x"}}\n',
    );
    expect(await second).toBe("two");
    const error = await first.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32602, message: "bad x" });
  });

  it('keeps 1 and "1" apart, and reports answers to nothing without failing anything', async () => {
    const { connection, warnings, answer } = fakeServer();
    const request = connection.request("a");
    answer(
      '{"jsonrpc":"2.0","id":"1","result":"wrong"}\n{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}\n',
    );
    answer("Server starting...\n\n");
    answer('{"jsonrpc":"2.0","id":1,"result":"right"}\n');
    expect(await request).toBe("right");
    expect(warnings).toEqual([
      'no pending request for {"jsonrpc":"2.0","id":"1","result":"wrong"}',
      'no pending request for {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      "skipped a line that is not JSON: Server starting...",
    ]);
  });

  it("rejects an answer whose error is not an error object, or that has neither result nor error", async () => {
    const { connection, answer } = fakeServer();
    const requests = [connection.request("a"), connection.request("b"), connection.request("c")];
    answer('{"jsonrpc":"2.0","id":1,"error":"boom"}\n{"jsonrpc":"2.0","id":2,"error":{"code":"x","message":"y"}}\n');
    answer('{"jsonrpc":"2.0","id":3}\n');
    const [first, second, third] = await Promise.allSettled(requests);
    expect(first).toEqual({
      status: "rejected",
      reason: new Error('the server answered with a malformed error: {"jsonrpc":"2.0","id":1,"error":"boom"}'),
    });
    expect(second).toMatchObject({
      status: "rejected",
      reason: { message: expect.stringContaining("malformed error") },
    });
    expect(third).toEqual({
      status: "rejected",
      reason: new Error('the server answered with neither a result nor an error: {"jsonrpc":"2.0","id":3}'),
    });
  });

  it("times a request out, forgets it, and reports the late answer", async () => {
    const { connection, warnings, answer } = fakeServer(50);
    await expect(connection.request("slow")).rejects.toThrow("slow timed out after 50 ms");
    answer('{"jsonrpc":"2.0","id":1,"result":1}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual(['no pending request for {"jsonrpc":"2.0","id":1,"result":1}']);
  });

  it("fails every waiting request at once when the server's output closes, and every later one", async () => {
    const { connection } = fakeServer(60_000);
    const started = Date.now();
    const waiting = connection.request("a");
    stops.splice(0).forEach((stop) => stop());
    await expect(waiting).rejects.toThrow("the server closed its output");
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(connection.request("b")).rejects.toThrow("the server closed its output");
  });

  it("fails everything when the server sends a line over 16 MiB, without waiting for its end", async () => {
    const { connection, answer } = fakeServer(60_000);
    const waiting = connection.request("a");
    answer(Buffer.alloc(16 * 1024 * 1024 + 1, "x"));
    await expect(waiting).rejects.toThrow("the server sent a line over 16777216 bytes");
  });
  it("tells onFailure once, with the first failure, which every later request then gets", async () => {
    const failures: string[] = [];
    const { connection, answer } = fakeServer(60_000, { onFailure: (error) => failures.push(error.message) });
    const waiting = connection.request("a");
    answer(Buffer.alloc(16 * 1024 * 1024 + 1, "x"));
    await expect(waiting).rejects.toThrow("the server sent a line over 16777216 bytes");
    connection.failAll(new Error("client closed"));
    expect(failures).toEqual(["the server sent a line over 16777216 bytes"]);
    await expect(connection.request("b")).rejects.toThrow("the server sent a line over 16777216 bytes");
  });
});
