import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callText, connect, makeFolders, type Connection, type Era } from "./harness.ts";
import { SIZE_LIMIT } from "./workspace.ts";

describe.each<Era>(["legacy", "modern"])("SDK server, %s era", (era) => {
  let folders: ReturnType<typeof makeFolders>;
  let server: Connection;
  const call = (name: string, args?: Record<string, unknown>) => callText(server.client, name, args);

  beforeAll(async () => {
    folders = makeFolders();
    server = await connect(folders.workspace, era);
  });
  afterAll(async () => {
    await server?.close();
    folders?.remove();
  });

  it("speaks the era the client asked for and logs only to stderr", async () => {
    expect(server.client.getProtocolEra()).toBe(era);
    expect(server.client.getNegotiatedProtocolVersion()).toBe(era === "legacy" ? "2025-11-25" : "2026-07-28");
    // A modern client asks its first request only now; the server builds its McpServer on that first message.
    expect((await call("echo", { text: "first" })).text).toBe("first");
    await vi.waitFor(() => expect(server.stderr()).toContain(`[server] a client opened a ${era}-era connection`));
  });

  it("lists the eight tools with their input schemas", async () => {
    const { tools } = await server.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "add", "echo", "get_current_time", "read_file", "list_files", "write_file", "sample_media", "add_note",
    ]);
    const add = tools.find((tool) => tool.name === "add");
    expect(add?.inputSchema).toMatchObject({ type: "object", required: ["a", "b"] });
    expect(tools.find((tool) => tool.name === "read_file")?.description).toContain("1 MiB");
  });

  it("adds, and returns arguments that fail the schema as a tool error", async () => {
    expect(await call("add", { a: 2, b: 40 })).toEqual({ text: "42", isError: false });
    const wrong = await call("add", { a: 2, b: "forty" });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/Invalid arguments for tool add: b/);
  });

  it("echoes text unchanged", async () => {
    expect(await call("echo", { text: "café 🙂" })).toEqual({ text: "café 🙂", isError: false });
  });

  it("tells the time in UTC by default and in a named zone with its offset", async () => {
    const utc = await call("get_current_time");
    expect(utc.text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00 \(UTC\)$/);
    expect(Math.abs(Date.parse(utc.text.slice(0, 25)) - Date.now())).toBeLessThan(60_000);
    const tokyo = await call("get_current_time", { timeZone: "Asia/Tokyo" });
    expect(tokyo.text).toMatch(/\+09:00 \(Asia\/Tokyo\)$/);
    expect(Math.abs(Date.parse(tokyo.text.slice(0, 25)) - Date.parse(utc.text.slice(0, 25)))).toBeLessThan(60_000);
  });

  it("returns an unknown time zone as a tool error and keeps serving", async () => {
    const bad = await call("get_current_time", { timeZone: "Mars/Olympus_Mons" });
    expect(bad).toEqual({ isError: true, text: expect.stringContaining('Unknown time zone "Mars/Olympus_Mons"') });
    expect((await call("echo", { text: "still here" })).text).toBe("still here");
  });

  it("reads files and lists folders, sorted, folders with a trailing slash", async () => {
    expect(await call("read_file", { path: "notes.txt" })).toEqual({ text: "Inside the workspace.\n", isError: false });
    expect((await call("read_file", { path: "docs/readme.md" })).text).toBe("# Docs\n");
    expect((await call("list_files")).text).toBe("docs/\nnotes.txt");
    expect((await call("list_files", { path: "docs" })).text).toBe("readme.md");
  });

  it("creates a file, refuses to replace it without overwrite, and replaces it whole with it", async () => {
    const file = path.join(folders.workspace, "docs", "new.txt");
    expect(await call("write_file", { path: "docs/new.txt", content: "first, longer version" }))
      .toEqual({ text: "Wrote 21 bytes to docs/new.txt.", isError: false });
    const again = await call("write_file", { path: "docs/new.txt", content: "second" });
    expect(again).toEqual({ isError: true, text: '"docs/new.txt" already exists; pass overwrite: true to replace it.' });
    expect(readFileSync(file, "utf8")).toBe("first, longer version");
    await call("write_file", { path: "docs/new.txt", content: "second", overwrite: true });
    expect(readFileSync(file, "utf8")).toBe("second");
  });

  it("reads a file of exactly the size limit and refuses one byte more", async () => {
    writeFileSync(path.join(folders.workspace, "limit.txt"), "x".repeat(SIZE_LIMIT));
    expect((await call("read_file", { path: "limit.txt" })).text).toHaveLength(SIZE_LIMIT);
    writeFileSync(path.join(folders.workspace, "big.txt"), "x".repeat(SIZE_LIMIT + 1));
    expect(await call("read_file", { path: "big.txt" })).toEqual({
      isError: true, text: `"big.txt" has ${SIZE_LIMIT + 1} bytes, over the limit of ${SIZE_LIMIT}.`,
    });
  });

  it("refuses to write more than the size limit", async () => {
    const tooBig = await call("write_file", { path: "huge.txt", content: "x".repeat(SIZE_LIMIT + 1) });
    expect(tooBig.isError).toBe(true);
    expect((await call("list_files")).text).not.toContain("huge.txt");
  });

  it("returns a text, a PNG image and a WAV audio item that decode", async () => {
    const { content } = await server.client.callTool({ name: "sample_media", arguments: {} });
    expect(content.map((item) => item.type)).toEqual(["text", "image", "audio"]);
    const [, image, audio] = content;
    if (image.type !== "image" || audio.type !== "audio") throw new Error("unexpected content types");
    expect(image.mimeType).toBe("image/png");
    const png = Buffer.from(image.data, "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(audio.mimeType).toBe("audio/wav");
    const wav = Buffer.from(audio.data, "base64");
    expect([wav.toString("ascii", 0, 4), wav.toString("ascii", 8, 12)]).toEqual(["RIFF", "WAVE"]);
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
  });

  it("answers an unknown tool with a JSON-RPC error, not a result", async () => {
    await expect(server.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/no_such_tool not found/);
  });
});
