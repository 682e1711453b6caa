// The SDK server against the official SDK client, in both eras: the hand-written server's tools, word for word.
// Where the SDK words a refusal itself, the tests check the channel and the field it names, not its sentence.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callText, connect, type SdkConnection, type Era } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

// The schemas the hand-written server publishes; the SDK server must publish the same ones.
const object = (properties: object, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const HAND_WRITTEN_TOOLS = [
  {
    name: "add",
    description: "Adds two numbers and returns the sum.",
    inputSchema: object({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]),
  },
  {
    name: "echo",
    description: "Returns the message it was given.",
    inputSchema: object({ message: { type: "string" } }, ["message"]),
  },
  {
    name: "createFile",
    description: "Creates or replaces a UTF-8 text file inside the server's sandbox folder.",
    inputSchema: object(
      { path: { type: "string", description: "Relative to the sandbox folder" }, content: { type: "string" } },
      ["path", "content"],
    ),
  },
];

describe.each<Era>(["legacy", "modern"])("SDK server, %s era", (era) => {
  const sandbox = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
  let server: SdkConnection;
  const call = (name: string, args?: Record<string, unknown>) => callText(server.client, name, args);

  beforeAll(async () => {
    server = await connect(sandbox, era);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(sandbox, { recursive: true, force: true });
  });

  it("speaks the era the client asked for, and logs only to stderr", async () => {
    expect(server.client.getProtocolEra()).toBe(era);
    expect(server.client.getNegotiatedProtocolVersion()).toBe(era === "legacy" ? "2025-11-25" : "2026-07-28");
    expect(server.client.getServerVersion()).toMatchObject({ name: "learn-mcp-sdk" });
    // A modern client sends its first message to this process only now; the factory runs on that message.
    expect(await call("echo", { message: "first" })).toEqual({ text: "first", isError: false });
    await vi.waitFor(() => expect(server.stderr()).toContain(`[server] a client opened a ${era}-era connection`));
  });

  it("lists the hand-written server's three tools with the same schemas", async () => {
    const { tools } = await server.client.listTools();
    // zod adds a $schema line; everything else is what the hand-written server wrote by hand.
    const published = tools.map(({ name, description, inputSchema: { $schema, ...inputSchema } }) => ({
      name,
      description,
      inputSchema,
    }));
    expect(published).toEqual(HAND_WRITTEN_TOOLS);
    expect(tools[0]?.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("adds, echoes and writes with the hand-written server's result texts", async () => {
    expect(await call("add", { a: 2, b: 40 })).toEqual({ text: "42", isError: false });
    expect(await call("add", { a: 0.1, b: 0.2 })).toEqual({ text: "0.30000000000000004", isError: false });
    expect(await call("echo", { message: "café 🙂" })).toEqual({ text: "café 🙂", isError: false });
    expect(await call("createFile", { path: `${era}.txt`, content: "café\n" })).toEqual({
      text: `Wrote 6 bytes to ${era}.txt`,
      isError: false,
    });
    expect(readFileSync(path.join(sandbox, `${era}.txt`), "utf8")).toBe("café\n");
  });

  it.each([
    ["a wrong type", "add", { a: 2, b: "40" }, "b"],
    ["a missing field", "add", { a: 2 }, "b"],
    ["an unexpected field", "add", { a: 2, b: 40, c: 1 }, "c"],
    ["null for a string", "echo", { message: null }, "message"],
  ])("returns %s as an isError result that names the field", async (_name, tool, args, field) => {
    const result = await call(tool, args);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(new RegExp(`\\b${field}\\b`));
    // Only the offending field is named: the valid "a" is not.
    expect(result.text).not.toMatch(/\ba\b/);
  });

  it("checks the arguments before the handler runs: a refused call writes nothing", async () => {
    const result = await call("createFile", { path: "extra.txt", content: "x", mode: 0o777 });
    expect(result).toEqual({ isError: true, text: expect.stringMatching(/\bmode\b/) });
    expect(existsSync(path.join(sandbox, "extra.txt"))).toBe(false);
  });

  it("answers an unknown tool with JSON-RPC error -32602, not a result", async () => {
    const error = await server.client
      .callTool({ name: "multiply", arguments: { a: 2, b: 40 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining("multiply") });
    expect(await call("add", { a: 1, b: 1 })).toEqual({ text: "2", isError: false });
  });
});
