// The SDK server against the official SDK client, in both eras: add and echo as before, and the three file tools.
// Where the SDK words a refusal itself, the tests check the channel and the field it names, not its sentence.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callText, connect, serverPath, type SdkConnection, type Era } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

// What tools/list must say, $schema aside: no extra fields anywhere, and every path described.
const object = (properties: object, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const workspacePath = { type: "string", description: "Relative to the workspace folder" };
const TOOLS = [
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
    name: "read_file",
    description: expect.stringMatching(/^Reads a UTF-8 text file\. .* files over 1048576 bytes are refused\.$/),
    inputSchema: object({ path: workspacePath }, ["path"]),
  },
  {
    name: "list_files",
    description: expect.stringContaining('"." is the workspace.'),
    inputSchema: object({ path: workspacePath }, ["path"]),
  },
  {
    name: "write_file",
    description: expect.stringMatching(/^Creates or replaces a UTF-8 text file\. /),
    inputSchema: object({ path: workspacePath, content: { type: "string" } }, ["path", "content"]),
  },
];

describe.each<Era>(["legacy", "modern"])("SDK server, %s era", (era) => {
  const workspace = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
  let server: SdkConnection;
  const call = (name: string, args?: Record<string, unknown>) => callText(server.client, name, args);

  beforeAll(async () => {
    server = await connect(workspace, era);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("speaks the era the client asked for, and logs only to stderr", async () => {
    expect(server.client.getProtocolEra()).toBe(era);
    expect(server.client.getNegotiatedProtocolVersion()).toBe(era === "legacy" ? "2025-11-25" : "2026-07-28");
    expect(server.client.getServerVersion()).toMatchObject({ name: "learn-mcp-sdk" });
    // A modern client sends its first message to this process only now; the factory runs on that message.
    expect(await call("echo", { message: "first" })).toEqual({ text: "first", isError: false });
    await vi.waitFor(() => expect(server.stderr()).toContain(`[server] a client opened a ${era}-era connection`));
  });

  it("lists add, echo and the three file tools with strict schemas", async () => {
    const { tools } = await server.client.listTools();
    const published = tools.map(({ name, description, inputSchema: { $schema, ...inputSchema } }) => ({
      name,
      description,
      inputSchema,
    }));
    expect(published).toEqual(TOOLS);
    expect(tools[0]?.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("adds, echoes and writes", async () => {
    expect(await call("add", { a: 2, b: 40 })).toEqual({ text: "42", isError: false });
    expect(await call("add", { a: 0.1, b: 0.2 })).toEqual({ text: "0.30000000000000004", isError: false });
    expect(await call("echo", { message: "café 🙂" })).toEqual({ text: "café 🙂", isError: false });
    expect(await call("write_file", { path: `${era}.txt`, content: "café\n" })).toEqual({
      text: `Wrote 6 bytes to ${era}.txt`,
      isError: false,
    });
    expect(readFileSync(path.join(workspace, `${era}.txt`), "utf8")).toBe("café\n");
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

  it("returns a workspace refusal as an isError result that names the path as the client gave it", async () => {
    const refused = 'read_file refused "docs/../../secret.txt": the path must not contain ".."';
    expect(await call("read_file", { path: "docs/../../secret.txt" })).toEqual({ isError: true, text: refused });
  });

  it("turns any other failure into a generic message, with the details only on stderr", async () => {
    const name = `${"n".repeat(300)}.txt`;
    expect(await call("write_file", { path: name, content: "x" })).toEqual({
      isError: true,
      text: "write_file failed with an internal error",
    });
    await vi.waitFor(() => expect(server.stderr()).toContain("ENAMETOOLONG"));
  });

  it("checks the arguments before the handler runs: a refused call writes nothing", async () => {
    const result = await call("write_file", { path: "extra.txt", content: "x", mode: 0o777 });
    expect(result).toEqual({ isError: true, text: expect.stringMatching(/\bmode\b/) });
    expect(existsSync(path.join(workspace, "extra.txt"))).toBe(false);
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

// Every reason the workspace cannot be opened is in workspace.test.ts; here, that one reaches the user as it should.
describe("start-up", () => {
  const nowhere = path.join(tmpdir(), `learn-mcp-nowhere-${process.pid}`);

  it.each([
    ["no folder", [], "expected one workspace folder\nusage: server.ts <workspace-folder>\n"],
    ["a folder that does not exist", [nowhere], `workspace folder ${nowhere} does not exist\n`],
  ])("exits 2 with one clear message for %s", (_name, args, message) => {
    const run = spawnSync(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, ...args], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({
      status: 2,
      stderr: message,
      stdout: "",
    });
  });
});
