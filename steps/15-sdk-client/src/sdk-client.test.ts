// The client against real servers, in each negotiation mode: what it negotiates, how it sorts answers, and that close()
// stops the server. One connection per server and mode, shared by the tests that read it.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { describeOutcome } from "./content.ts";
import { callTool, connect, describeConnection, type SdkConnection } from "./sdk-client.ts";
import { everythingServer, handWrittenServer, sdkServer } from "./servers.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.each<[string, VersionNegotiationMode, string]>([
  ["legacy", "legacy", "legacy era, protocol 2025-11-25"],
  ["auto", "auto", "modern era, protocol 2026-07-28"],
  ["pinned", { pin: "2026-07-28" }, "modern era, protocol 2026-07-28"],
])("this step's server, %s mode", (_name, mode, negotiated) => {
  let server: SdkConnection;
  beforeAll(async () => (server = await connect(sdkServer(folder), mode)));
  afterAll(() => server?.close());

  it("negotiates the era the mode leads to, and names the server", () => {
    expect(describeConnection(server.client)).toBe(`${negotiated}, learn-mcp-sdk 0.1.0`);
  });

  it("tells a result, a tool error and a protocol error apart", async () => {
    expect(describeOutcome(await callTool(server.client, "add", { a: 2, b: 40 }))).toEqual(["result", '  text "42"']);
    const refused = await callTool(server.client, "read_file", { path: "../secret.txt" });
    expect(describeOutcome(refused)).toEqual([
      "tool error (isError: true)",
      '  text "read_file refused \\"../secret.txt\\": the path must not contain \\"..\\""',
    ]);
    // Arguments that break the inputSchema are a tool error too (SEP-1303), so that a model can read why and retry.
    expect((await callTool(server.client, "add", { a: "two" })).kind).toBe("tool error");
    expect(await callTool(server.client, "no_such_tool")).toEqual({
      kind: "protocol error",
      code: -32602,
      message: "Tool no_such_tool not found",
    });
  });

  it("describes every content type by MIME type and decoded size", async () => {
    const [heading, ...items] = describeOutcome(await callTool(server.client, "sample_media"));
    expect(heading).toBe("result");
    expect(items).toEqual([
      expect.stringMatching(/^ {2}text "One item of each content type/),
      expect.stringMatching(/^ {2}image image\/png, \d+ bytes$/),
      // A quarter second of 16-bit mono at 8 kHz is 4000 bytes, after a 44-byte header.
      "  audio audio/wav, 4044 bytes",
      "  resource sample://notes.md (text/markdown), 88 bytes of text",
      expect.stringMatching(/^ {2}resource_link sample:\/\/gradient\.png \(image\/png\), \d+ bytes$/),
    ]);
    // The link's declared size is the image's decoded size: the same PNG.
    expect(items[1]!.match(/\d+ bytes/)![0]).toBe(items[4]!.match(/\d+ bytes/)![0]);
  });

  it("stops the server on close, with its log complete", async () => {
    await server.close();
    expect(isRunning(server.pid!)).toBe(false);
    expect(server.stderr()).toContain(`a client opened a ${negotiated.split(" ")[0]}-era connection`);
  });
});

describe("the hand-written server, auto mode", () => {
  let server: SdkConnection;
  beforeAll(async () => (server = await connect(handWrittenServer(folder), "auto")));
  afterAll(() => server?.close());

  it("falls back to initialize, since the server answers server/discover with -32601", async () => {
    expect(describeConnection(server.client)).toMatch(/^legacy era, protocol 2025-11-25, /);
    expect((await server.client.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["add", "echo", "createFile"]),
    );
    // The probe went to a short-lived second process; this one saw only the handshake.
    expect(server.stderr()).not.toContain("server/discover");
  });

  it("tells its tool errors from its protocol errors", async () => {
    expect((await callTool(server.client, "createFile", { path: "../escape.txt", content: "x" })).kind).toBe(
      "tool error",
    );
    expect(await callTool(server.client, "no_such_tool")).toMatchObject({ kind: "protocol error", code: -32602 });
  });
});

describe("server-everything, built on the previous SDK major", () => {
  it("connects in legacy mode and answers an unknown tool with a tool error, not -32602", async () => {
    const server = await connect(everythingServer(), "legacy");
    try {
      expect(describeConnection(server.client)).toMatch(/^legacy era, protocol 2025-11-25, mcp-servers\/everything /);
      expect(describeOutcome(await callTool(server.client, "get-sum", { a: 2, b: 40 }))).toEqual([
        "result",
        '  text "The sum of 2 and 40 is 42."',
      ]);
      expect(describeOutcome(await callTool(server.client, "no_such_tool"))).toEqual([
        "tool error (isError: true)",
        '  text "MCP error -32602: Tool no_such_tool not found"',
      ]);
    } finally {
      await server.close();
    }
  });

  it("fails a pinned modern connect with a typed error", async () => {
    const failure = connect(everythingServer(), { pin: "2026-07-28" });
    await expect(failure).rejects.toBeInstanceOf(SdkError);
    await expect(failure).rejects.toMatchObject({ code: SdkErrorCode.EraNegotiationFailed });
    await expect(failure).rejects.toThrow(/did not offer pinned protocol version 2026-07-28/);
  });
});

describe("the probe timeout", () => {
  const silent = {
    command: process.execPath,
    args: [fileURLToPath(new URL("./fixtures/silent-discover.mjs", import.meta.url))],
  };

  it("is what a server that never answers server/discover costs auto mode, which then falls back", async () => {
    const started = performance.now();
    const server = await connect(silent, "auto", 1_500);
    try {
      expect(performance.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(describeConnection(server.client)).toBe("legacy era, protocol 2025-11-25, silent-discover 1.0.0");
    } finally {
      await server.close();
    }
  });

  it("fails a pinned connect as if the revision were not offered", async () => {
    await expect(connect(silent, { pin: "2026-07-28" }, 1_500)).rejects.toMatchObject({
      code: SdkErrorCode.EraNegotiationFailed,
    });
  });
});

describe("callTool", () => {
  // Stand-ins for the SDK's Client: each answers callTool the way a real one can.
  const answering = (callTool: () => Promise<unknown>) => ({ callTool }) as unknown as Client;
  const content = [{ type: "text", text: "x" }];

  it("keeps a result and a tool error apart by isError, and only true counts", async () => {
    expect(
      await callTool(
        answering(async () => ({ content })),
        "t",
      ),
    ).toMatchObject({ kind: "result" });
    expect(
      await callTool(
        answering(async () => ({ content, isError: false })),
        "t",
      ),
    ).toMatchObject({ kind: "result" });
    expect(
      await callTool(
        answering(async () => ({ content, isError: true })),
        "t",
      ),
    ).toMatchObject({ kind: "tool error" });
  });

  it("turns a JSON-RPC error into a protocol error with its code", async () => {
    const refusing = answering(async () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Tool t not found");
    });
    expect(await callTool(refusing, "t")).toEqual({
      kind: "protocol error",
      code: -32602,
      message: "Tool t not found",
    });
  });

  it("lets the SDK's own failures, such as a timeout, throw: no server answered them", async () => {
    const timedOut = new SdkError(SdkErrorCode.RequestTimeout, "Request timed out");
    await expect(
      callTool(
        answering(async () => Promise.reject(timedOut)),
        "t",
      ),
    ).rejects.toBe(timedOut);
  });
});
