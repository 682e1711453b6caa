// The summarize_file prompt against the real server, in both eras: its arguments, its messages and its refusals.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ProtocolError, ResourceNotFoundError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getPrompt, listPrompts } from "./browse.ts";
import { connect, type SdkConnection, type Era } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

describe.each<Era>(["legacy", "modern"])("prompts, %s era", (era) => {
  const workspace = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
  let server: SdkConnection;
  const get = (args: Record<string, string>, name = "summarize_file") =>
    server.client.getPrompt({ name, arguments: args });

  beforeAll(async () => {
    mkdirSync(path.join(workspace, "docs"));
    writeFileSync(path.join(workspace, "docs", "readme.md"), "# Docs\n");
    writeFileSync(path.join(workspace, "notes.txt"), "café\n");
    server = await connect(workspace, era);
  });
  afterAll(async () => {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("lists summarize_file with a required path and an optional style", async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts).toEqual([
      {
        name: "summarize_file",
        title: "Summarize a file",
        description: "Asks the model to summarize one workspace file, embedded in the messages as a resource.",
        arguments: [
          { name: "path", description: "A path inside the workspace folder.", required: true },
          { name: "style", description: '"brief" (the default) or "detailed".', required: false },
        ],
      },
    ]);
    expect(await listPrompts(server.client)).toBe("prompts/list -> summarize_file(path, style?)");
  });

  it("embeds the file as a resource, then asks in the chosen style", async () => {
    expect(await get({ path: "docs/readme.md", style: "detailed" })).toMatchObject({
      description: "Summarize docs/readme.md, detailed",
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: "workspace://file/docs/readme.md", mimeType: "text/plain", text: "# Docs\n" },
          },
        },
        {
          role: "user",
          content: { type: "text", text: "Summarize the file above as a short list of its main points." },
        },
      ],
    });
  });

  it("uses the brief style when none is given, and sizes the text in UTF-8 bytes", async () => {
    expect(await getPrompt(server.client, "summarize_file", { path: "notes.txt" })).toEqual([
      "result",
      "  user: resource workspace://file/notes.txt (text/plain), 6 bytes of text",
      '  user: text "Summarize the file above in one sentence."',
    ]);
  });

  it.each([
    ["a missing path", { style: "brief" }, /^Invalid arguments for prompt summarize_file: path: /],
    [
      "a style outside the enum",
      { path: "notes.txt", style: "long" },
      /^Invalid arguments for prompt summarize_file: style: /,
    ],
    [
      "an argument it does not know",
      { path: "notes.txt", tone: "dry" },
      /^Invalid arguments for prompt summarize_file: Unrecognized key: "tone"/,
    ],
  ])("refuses %s with -32602 before the handler runs", async (_name, args, message) => {
    const error = await get(args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringMatching(message) });
  });

  it("refuses a file the workspace refuses, as the resource template does", async () => {
    const error = await get({ path: "../secret.txt" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({
      code: -32602,
      message: 'workspace://file/../secret.txt refused: the path must not contain ".."',
    });
  });

  it("answers an unknown prompt with -32602", async () => {
    await expect(get({}, "no_such_prompt")).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Prompt no_such_prompt not found"),
    });
  });
});
