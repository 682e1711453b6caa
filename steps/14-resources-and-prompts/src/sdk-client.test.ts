import { Client, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeContent, describeOutcome } from "./content.ts";
import { callTool, connect, describeConnection, type Connection } from "./sdk-client.ts";
import { everythingServer, handWrittenServer, sdkServer } from "./servers.ts";

// Every test here starts real servers; a loaded machine needs far more than vitest's default 5 s.
const slow = { timeout: 60_000 };
let folder: string;
beforeAll(async () => (folder = await mkdtemp(join(tmpdir(), "learn-mcp-06-test-"))));
afterAll(() => rm(folder, { recursive: true, force: true }));

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("this step's SDK server, pinned to the modern era", slow, () => {
  let server: Connection;
  beforeAll(async () => (server = await connect(sdkServer(folder), { pin: "2026-07-28" })), 60_000);
  afterAll(() => server?.close());

  it("negotiates the 2026-07-28 revision and names the server", () => {
    expect(describeConnection(server.client)).toBe("modern era, protocol 2026-07-28, learn-mcp-sdk-server 0.7.0");
  });

  it("lists its eight tools and calls one", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["add", "add_note", "echo", "get_current_time", "list_files", "read_file", "sample_media", "write_file"],
    );
    expect(describeOutcome(await callTool(server.client, "add", { a: 2, b: 40 }))).toEqual(["result", '  text "42"']);
  });

  it("returns an image and an audio clip whose decoded bytes are a real PNG and a real WAV", async () => {
    const outcome = await callTool(server.client, "sample_media");
    if (outcome.kind !== "result") throw new Error(`expected a result, got ${outcome.kind}`);
    const [, image, audio] = outcome.result.content;
    if (image?.type !== "image" || audio?.type !== "audio") throw new Error("expected text, image, audio");
    expect(Buffer.from(image.data, "base64").subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(Buffer.from(audio.data, "base64").subarray(8, 12).toString("latin1")).toBe("WAVE");
    // A quarter second of 16-bit mono at 8 kHz is 4000 bytes, after a 44-byte header.
    expect(describeContent(audio)).toBe("audio audio/wav, 4044 bytes");
    expect(describeContent(image)).toMatch(/^image image\/png, \d+ bytes$/);
  });

  it("tells a tool error from a protocol error", async () => {
    const refused = await callTool(server.client, "get_current_time", { timeZone: "Mars/Olympus_Mons" });
    const [heading, message] = describeOutcome(refused);
    expect(heading).toBe("tool error (isError: true)");
    expect(message).toContain("Mars/Olympus_Mons");
    // Arguments that break the inputSchema are a tool error too (SEP-1303), so a model can read why and retry.
    expect((await callTool(server.client, "add", { a: "two" })).kind).toBe("tool error");
    expect(await callTool(server.client, "no_such_tool")).toEqual({
      kind: "protocol error", code: -32602, message: "Tool no_such_tool not found",
    });
  });
});

describe("the hand-written server, in auto mode", slow, () => {
  let server: Connection;
  beforeAll(async () => (server = await connect(handWrittenServer(folder), "auto")), 60_000);
  afterAll(() => server?.close()); // a second close is harmless: the last test closes on purpose

  it("falls back to initialize, since the server answers server/discover with -32601", () => {
    expect(describeConnection(server.client)).toBe("legacy era, protocol 2025-11-25, learn-mcp-by-hand 0.6.0");
  });

  it("lists and calls tools, and tells a tool error from a protocol error", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "echo", "createFile"]);
    expect(await callTool(server.client, "echo", { message: "héllo" })).toMatchObject({ kind: "result" });
    expect((await callTool(server.client, "createFile", { path: "../out.txt", content: "x" })).kind).toBe("tool error");
    expect(await callTool(server.client, "no_such_tool")).toMatchObject({ kind: "protocol error", code: -32602 });
  });

  it("stops the server on close, and the server's log shows only the initialize handshake", async () => {
    const log = await server.close();
    expect(isRunning(server.pid!)).toBe(false);
    // The probe went to a short-lived sibling process; this server only ever saw initialize.
    expect(log).toContain("initialize: client asked for 2025-11-25");
  });
});

describe("protocol eras", slow, () => {
  it("auto mode picks the modern era when the server offers it in server/discover", async () => {
    const server = await connect(sdkServer(folder), "auto");
    expect(server.client.getProtocolEra()).toBe("modern");
    // The probe ran on a short-lived sibling process; the session's own server hears its first request only now.
    await server.client.listTools();
    expect(await server.close()).toContain("a client opened a modern-era connection");
  });

  it("auto mode falls back to the legacy era on the server's answer, without waiting for the probe timeout", async () => {
    const started = performance.now();
    // The SDK's default probe timeout: a fallback that waited for it would take a minute.
    const server = await connect(everythingServer(), "auto", 60_000);
    const seconds = (performance.now() - started) / 1000;
    try {
      expect(describeConnection(server.client)).toMatch(/^legacy era, protocol 2025-11-25, mcp-servers\/everything /);
      // About 2 s here: two start-ups of the server, one for the probe and one for the session. Loaded machines are slower.
      expect(seconds).toBeLessThan(15);
    } finally {
      await server.close();
    }
  });

  it("a pinned modern era fails against a legacy server with a clear, typed error", async () => {
    const failure = connect(everythingServer(), { pin: "2026-07-28" });
    await expect(failure).rejects.toBeInstanceOf(SdkError);
    await expect(failure).rejects.toMatchObject({ code: SdkErrorCode.EraNegotiationFailed });
    await expect(failure).rejects.toThrow(/did not offer pinned protocol version 2026-07-28/);
  });
});

describe("callTool", () => {
  // Stand-ins for the SDK's Client: each answers callTool the way a real one can.
  const answering = (callTool: () => Promise<unknown>) => ({ callTool }) as unknown as Client;

  it("keeps a result and a tool error apart by isError", async () => {
    const content = [{ type: "text", text: "x" }];
    expect(await callTool(answering(async () => ({ content })), "t")).toMatchObject({ kind: "result" });
    expect(await callTool(answering(async () => ({ content, isError: true })), "t")).toMatchObject({ kind: "tool error" });
  });

  it("turns a JSON-RPC error into a protocol error with its code", async () => {
    const refusing = answering(async () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Tool t not found");
    });
    expect(await callTool(refusing, "t")).toEqual({ kind: "protocol error", code: -32602, message: "Tool t not found" });
  });

  it("lets the SDK's own failures, such as a timeout, throw: no server answered them", async () => {
    const timedOut = new SdkError(SdkErrorCode.RequestTimeout, "Request timed out");
    await expect(callTool(answering(async () => Promise.reject(timedOut)), "t")).rejects.toBe(timedOut);
  });
});
