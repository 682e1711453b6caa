import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getPrompt } from "./browse.ts";
import { connect, makeFolders, type Connection, type Era } from "./harness.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

describe.each<Era>(["legacy", "modern"])("prompts, %s era", (era) => {
  let folders: ReturnType<typeof makeFolders>;
  let server: Connection;
  const get = (args: Record<string, string>, name = "summarize_file") => server.client.getPrompt({ name, arguments: args });
  const refusal = (message: RegExp) => ({ code: ProtocolErrorCode.InvalidParams, message: expect.stringMatching(message) });

  beforeAll(async () => {
    folders = makeFolders();
    server = await connect(folders.workspace, era);
  });
  afterAll(async () => {
    await server?.close();
    folders?.remove();
  });

  it("lists summarize_file with a required path and an optional style", async () => {
    const { prompts } = await server.client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["summarize_file"]);
    expect(prompts[0].arguments).toEqual([
      { name: "path", description: "A path inside the workspace folder.", required: true },
      { name: "style", description: '"brief" (the default) or "detailed".', required: false },
    ]);
  });

  it("embeds the file as a resource, then asks in the chosen style", async () => {
    const { messages } = await get({ path: "docs/readme.md", style: "detailed" });
    expect(messages).toEqual([
      {
        role: "user",
        content: { type: "resource", resource: { uri: "workspace://file/docs/readme.md", mimeType: "text/plain", text: "# Docs\n" } },
      },
      { role: "user", content: { type: "text", text: "Summarize the file above as a short list of its main points." } },
    ]);
  });

  it("uses the brief style when none is given", async () => {
    expect(await getPrompt(server.client, "summarize_file", { path: "notes.txt" })).toEqual([
      "result",
      "  user: resource workspace://file/notes.txt (text/plain), 22 bytes of text",
      '  user: text "Summarize the file above in one sentence."',
    ]);
  });

  it("refuses a missing required argument and a style outside the enum with -32602", async () => {
    await expect(get({ style: "brief" })).rejects.toBeInstanceOf(ProtocolError);
    await expect(get({ style: "brief" })).rejects.toMatchObject(refusal(/Invalid arguments for prompt summarize_file: path/));
    await expect(get({ path: "notes.txt", style: "long" })).rejects.toMatchObject(refusal(/style/));
  });

  it("refuses a file outside the workspace, as the resource template does", async () => {
    await expect(get({ path: "../outside/secret.txt" })).rejects.toMatchObject(refusal(/is outside the workspace/));
  });

  it("answers an unknown prompt with -32602", async () => {
    await expect(get({}, "no_such_prompt")).rejects.toMatchObject(refusal(/Prompt no_such_prompt not found/));
  });
});
