import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/client";
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listAll, readResource } from "./browse.ts";
import { connect, makeFolders, type Connection, type Era } from "./harness.ts";
import { gradientPng } from "./media.ts";

// A modern connection starts the server twice (probe, then session); a loaded machine needs more than 5 s.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

// "<outside>" stands for the outside folder's absolute path, percent-encoded. Each URI is refused with -32602 and this message.
const escapes: [uri: string, message: RegExp][] = [
  ["workspace://file/..%2Foutside%2Fsecret.txt", /"\.\.\/outside\/secret.txt" is outside the workspace/],
  ["workspace://file/docs%2F..%2F..%2Foutside%2Fsecret.txt", /is outside the workspace/],
  ["workspace://file/<outside>%2Fsecret.txt", /is outside the workspace/],
  ["workspace://file/leak.txt", /"leak.txt" is a symbolic link; links are not followed/],
  ["workspace://file/out/secret.txt", /goes through "out", a symbolic link/],
  // The URL parser removes a literal `..` before the SDK matches the template: the handler never sees it.
  ["workspace://file/../outside/secret.txt", /"outside\/secret.txt" has no folder "outside"/],
  ["workspace://file/%E0%A4%A", /"%E0%A4%A" is not a valid encoded path/],
];

describe.each<Era>(["legacy", "modern"])("resources, %s era", (era) => {
  let folders: ReturnType<typeof makeFolders>;
  let server: Connection;
  const read = async (uri: string) => (await server.client.readResource({ uri })).contents;

  beforeAll(async () => {
    folders = makeFolders();
    writeFileSync(path.join(folders.workspace, "docs", "two words.bin"), Buffer.from([0xff, 0x00, 0x80]));
    server = await connect(folders.workspace, era);
    await server.client.listTools(); // serving before the links appear: nothing may be trusted from startup
    symlinkSync(path.join(folders.outside, "secret.txt"), path.join(folders.workspace, "leak.txt"));
    symlinkSync(folders.outside, path.join(folders.workspace, "out"));
  });
  afterAll(async () => {
    await server?.close();
    folders?.remove();
  });

  it("lists two fixed resources, two templates and the prompt", async () => {
    expect(await listAll(server.client)).toEqual([
      "resources/list -> about://server, media://gradient.png",
      "resources/templates/list -> workspace://file/{+path}, note://{name}",
      "prompts/list -> summarize_file(path, style?)",
    ]);
  });

  it("reads the text resource", async () => {
    const [about] = await read("about://server");
    expect(about).toMatchObject({ uri: "about://server", mimeType: "text/markdown" });
    expect("text" in about && about.text).toMatch(/^# learn-mcp-sdk-server\n/);
  });

  it("reads the binary resource as base64 that decodes to the exact PNG bytes", async () => {
    const [gradient] = await read("media://gradient.png");
    if (!("blob" in gradient)) throw new Error("expected a blob");
    const png = Buffer.from(gradient.blob, "base64");
    expect(png.equals(gradientPng())).toBe(true);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32]); // IHDR width and height
    expect(await readResource(server.client, "media://gradient.png")).toEqual([
      "result", `  resource media://gradient.png (image/png), ${png.length} bytes of blob`,
    ]);
  });

  it("reads workspace files through the template: nested, as text, and binary as a blob", async () => {
    expect(await read("workspace://file/notes.txt")).toEqual([
      { uri: "workspace://file/notes.txt", mimeType: "text/plain", text: "Inside the workspace.\n" },
    ]);
    expect(await read("workspace://file/docs/readme.md")).toMatchObject([{ text: "# Docs\n" }]);
    const [binary] = await read("workspace://file/docs/two%20words.bin");
    expect(binary).toMatchObject({ uri: "workspace://file/docs/two%20words.bin", mimeType: "application/octet-stream" });
    expect("blob" in binary && [...Buffer.from(binary.blob, "base64")]).toEqual([0xff, 0x00, 0x80]);
  });

  it.each(escapes)("refuses %s with -32602", async (uri, message) => {
    const failure = read(uri.replace("<outside>", encodeURIComponent(folders.outside)));
    await expect(failure).rejects.toBeInstanceOf(ProtocolError);
    await expect(failure).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams, message: expect.stringMatching(message) });
    await expect(failure).rejects.not.toThrow(/TOP SECRET/);
  });

  it("answers an unknown note or scheme as resource not found", async () => {
    expect(await readResource(server.client, "note://missing")).toEqual([
      "protocol error: ProtocolError -32602: Resource not found: note://missing",
    ]);
    await expect(read("nowhere://at-all")).rejects.toThrow(/Resource not found: nowhere:\/\/at-all/);
  });
});
