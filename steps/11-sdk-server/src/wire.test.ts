// The SDK server on the wire, with hand-typed lines: how the first message picks the era, and what the SDK
// answers (or does not answer) where the hand-written server had its own rules.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect, test, vi } from "vitest";
import { Lines } from "./test/lines.ts";

vi.setConfig({ testTimeout: 20_000 });

const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
const servers: Lines[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) expect(await server.close()).toBe(0);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function start(): Lines {
  const server = new Lines(folder);
  servers.push(server);
  return server;
}

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "by-hand", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};
const addCall = (id: number, _meta?: object) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "add", arguments: { a: 2, b: 40 }, ...(_meta && { _meta }) },
  });
const FORTY_TWO = { content: [{ type: "text", text: "42" }] };
const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "learn-mcp-sdk", version: "0.1.0" } };

test("answers tools/call sent before initialize, in the 2025 era", async () => {
  const server = start();
  server.send(addCall(1));
  expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 1, result: FORTY_TWO });
  await vi.waitFor(() => expect(server.stderr).toContain("a client opened a legacy-era connection"));
});

test("answers a hand-typed 2026-07-28 request with no handshake, its result marked complete", async () => {
  const server = start();
  server.send(addCall(1, META));
  expect(await server.next()).toEqual({
    jsonrpc: "2.0",
    id: 1,
    result: { ...FORTY_TWO, resultType: "complete", _meta: SERVER_INFO },
  });
  // clientInfo is optional; the other two are not.
  const { "io.modelcontextprotocol/clientInfo": _, ...withoutInfo } = META;
  server.send(addCall(2, withoutInfo));
  expect(await server.next()).toMatchObject({ id: 2, result: FORTY_TWO });
  expect(server.stderr).toContain("a client opened a modern-era connection");
});

test.each(["io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/protocolVersion"])(
  "after a modern opening, refuses a request without %s with -32602",
  async (key) => {
    const server = start();
    server.send(addCall(1, META));
    await server.next();
    const { [key]: _, ...rest } = META as Record<string, unknown>;
    server.send(addCall(2, rest));
    // Past the opening, the SDK's message names the revision but not the missing field.
    const envelope = "Invalid _meta envelope for protocol revision 2026-07-28: ";
    expect(await server.next()).toMatchObject({
      id: 2,
      error: { code: -32602, message: expect.stringContaining(envelope) },
    });
    server.send(addCall(3));
    const missing = "Request is missing the required _meta envelope for protocol revision 2026-07-28";
    expect(await server.next()).toMatchObject({
      id: 3,
      error: { code: -32602, message: expect.stringContaining(missing) },
    });
  },
);

test("refuses an opening request without clientCapabilities with -32602, naming the field", async () => {
  const server = start();
  const { "io.modelcontextprotocol/clientCapabilities": _, ...rest } = META;
  server.send(addCall(1, rest));
  expect(await server.next()).toEqual({
    jsonrpc: "2.0",
    id: 1,
    error: {
      code: -32602,
      message:
        "Invalid _meta envelope for protocol revision 2026-07-28: io.modelcontextprotocol/clientCapabilities: missing",
      data: { envelope: { key: "io.modelcontextprotocol/clientCapabilities", problem: "missing" } },
    },
  });
});

test("refuses a version it does not know with -32022 and the versions it supports", async () => {
  const server = start();
  server.send(addCall(1, { ...META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" }));
  expect(await server.next()).toMatchObject({
    id: 1,
    error: { code: -32022, data: { supported: ["2026-07-28"], requested: "2099-01-01" } },
  });
});

test("answers a line that is not JSON, or not JSON-RPC, with nothing at all", async () => {
  const server = start();
  server.send(addCall(1));
  await server.next();
  for (const line of ["not json", '{"jsonrpc":"2.0","id":2}', `[${addCall(3)}]`]) server.send(line);
  server.send(addCall(4));
  // The next line out is the answer to 4: nothing came for 2 or 3, and no -32700 for the first line either.
  expect(await server.next()).toMatchObject({ id: 4, result: FORTY_TWO });
});

// The SDK copies its whole buffer on every 64 KiB chunk, so 10 MiB takes seconds on a busy machine.
test("stops reading at a message over 10 MiB: nothing after it is answered", { timeout: 90_000 }, async () => {
  const server = start();
  const big = "x".repeat(10 * 1024 * 1024);
  server.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { message: big } },
    }),
  );
  server.send(addCall(2));
  await vi.waitFor(
    () => expect(server.stderr).toContain("[server] ReadBuffer exceeded maximum size of 10485760 bytes"),
    60_000,
  );
  // The process lives on until its stdin ends, with no line written for either request.
  expect(await server.close()).toBe(0);
  expect(await server.nextOrEnd()).toBeUndefined();
});

test("exits 0 when its stdin ends", async () => {
  const server = start();
  server.send(addCall(1));
  await server.next();
  expect(await server.close()).toBe(0);
});
