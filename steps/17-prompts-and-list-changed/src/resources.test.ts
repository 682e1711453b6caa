// Resources against the real server, in both eras: the two samples, the workspace template, and every read it refuses.
// Traps are planted after the server started, so nothing checked at start-up can be trusted since.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ProtocolError, ResourceNotFoundError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listResources, readResource } from "./browse.ts";
import { gradientPng } from "./media.ts";
import { NOTES } from "./resources.ts";
import { connect, type SdkConnection, type Era } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

describe.each<Era>(["legacy", "modern"])("resources, %s era", (era) => {
  const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
  const workspace = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  let server: SdkConnection;
  const read = async (uri: string) => (await server.client.readResource({ uri })).contents;

  beforeAll(async () => {
    mkdirSync(path.join(workspace, "docs"), { recursive: true });
    mkdirSync(outside);
    writeFileSync(path.join(outside, "secret.txt"), "TOP SECRET\n");
    writeFileSync(path.join(workspace, "notes.txt"), "Inside the workspace.\n");
    writeFileSync(path.join(workspace, "docs", "two words.md"), "# Two words\n");
    server = await connect(workspace, era);
    await server.client.listResources(); // serving before the traps appear
    symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "leak.txt"));
    symlinkSync(outside, path.join(workspace, "out"));
    writeFileSync(path.join(workspace, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("lists the two samples and the two templates, and no file of the workspace template", async () => {
    expect(await listResources(server.client)).toEqual([
      "resources/list -> sample://notes.md (text/markdown), sample://gradient.png (image/png)",
      "resources/templates/list -> workspace://file/{+path} (text/plain), note://{name} (text/plain)",
    ]);
  });

  it("reads the text sample, and the binary one as base64 that decodes to the exact PNG", async () => {
    expect(await read("sample://notes.md")).toEqual([
      { uri: "sample://notes.md", mimeType: "text/markdown", text: NOTES },
    ]);
    const [gradient] = await read("sample://gradient.png");
    if (gradient === undefined || !("blob" in gradient)) throw new Error("expected a blob");
    expect(gradient.mimeType).toBe("image/png");
    expect(Buffer.from(gradient.blob, "base64").equals(gradientPng())).toBe(true);
  });

  it("resolves both URIs that sample_media returns, with the size its link declares", async () => {
    const { content } = await server.client.callTool({ name: "sample_media", arguments: {} });
    const [embedded, link] = content.slice(3);
    if (embedded?.type !== "resource" || link?.type !== "resource_link")
      throw new Error("expected an embedded resource, then a link");
    expect(await read(embedded.resource.uri)).toEqual([embedded.resource]);
    expect(await readResource(server.client, link.uri)).toEqual([
      "result",
      `  resource ${link.uri} (image/png), ${link.size} bytes of blob`,
    ]);
  });

  it("reads workspace files through the template, nested and percent-encoded", async () => {
    expect(await read("workspace://file/notes.txt")).toEqual([
      { uri: "workspace://file/notes.txt", mimeType: "text/plain", text: "Inside the workspace.\n" },
    ]);
    expect(await read("workspace://file/docs/two%20words.md")).toEqual([
      { uri: "workspace://file/docs/two%20words.md", mimeType: "text/plain", text: "# Two words\n" },
    ]);
  });

  it.each([
    ["..%2Foutside%2Fsecret.txt", ' refused: the path must not contain ".."'],
    ["docs%2F..%2F..%2Foutside%2Fsecret.txt", ' refused: the path must not contain ".."'],
    ["<outside>%2Fsecret.txt", " refused: the path must be relative to the workspace"],
    ["leak.txt", " refused: it is a symbolic link; links are not followed"],
    ["out/secret.txt", ' refused: "out" is a symbolic link; links are not followed'],
    ["docs", " refused: it is a folder, not a file"],
    ["missing.txt", " refused: it does not exist"],
    ["latin1.txt", " refused: it is not UTF-8 text"],
    ["%E0%A4%A", ": the path is not valid percent-encoding"],
  ])("refuses workspace://file/%s as resource not found, -32602 with data {uri}", async (encoded, why) => {
    const uri = `workspace://file/${encoded.replace("<outside>", encodeURIComponent(outside))}`;
    const error = await read(uri).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error).toMatchObject({ code: -32602, message: uri + why, data: { uri } });
  });

  it("never sees a literal ..: the URL parser removes it before the template matches", async () => {
    const error = await read("workspace://file/../outside/secret.txt").catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: -32602,
      message: 'workspace://file/outside/secret.txt refused: there is no folder "outside"',
    });
  });

  it("answers a URI that no resource or template matches as not found, and one that is no URI as invalid", async () => {
    expect(await readResource(server.client, "nowhere://at-all")).toEqual([
      "resource not found (-32602): Resource not found: nowhere://at-all",
    ]);
    const invalid = await read("not a uri").catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ProtocolError);
    expect(invalid).not.toBeInstanceOf(ResourceNotFoundError);
    expect(invalid).toMatchObject({ code: -32602, data: { uri: "not a uri", reason: "invalid_uri" } });
  });

  it("turns any other failure into a generic -32603, with the details only on stderr", async () => {
    const uri = `workspace://file/${"n".repeat(300)}.txt`;
    await expect(read(uri)).rejects.toMatchObject({
      code: -32603,
      message: `reading ${uri} failed with an internal error`,
    });
    await vi.waitFor(() => expect(server.stderr()).toContain("ENAMETOOLONG"));
  });
});
