import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeFolders } from "./harness.ts";
import { Wire } from "./wire.ts";

describe("SDK server on the wire", { timeout: 15_000 }, () => {
  const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
  let folders: ReturnType<typeof makeFolders> | undefined;
  let wire: Wire | undefined;
  afterEach(() => {
    wire?.child.kill();
    folders?.remove();
  });

  // Writes raw lines, reads one answer per request, then closes stdin: the server must exit on its own.
  async function exchange(messages: object[]): Promise<{ replies: Record<string, unknown>[]; code: number | null }> {
    folders = makeFolders();
    wire = new Wire(serverPath, [folders.workspace]);
    for (const message of messages) wire.send(JSON.stringify({ jsonrpc: "2.0", ...message }));
    const replies = [];
    for (const message of messages) if ("id" in message) replies.push(JSON.parse(await wire.nextLine()));
    const code = await wire.close();
    // Every stdout line must be a reply: one stray console.log would fail to parse above or be left over here.
    await expect(wire.nextLine()).rejects.toThrow("server closed its output");
    return { replies, code };
  }

  it("answers the 2025 handshake, then exits when stdin ends", async () => {
    const { replies, code } = await exchange([
      { id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { method: "notifications/initialized" },
      { id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } },
    ]);
    expect(replies[0]).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18", serverInfo: { name: "learn-mcp-sdk-server" } } });
    expect(replies[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "3" }] } });
    expect(code).toBe(0);
  });

  it("answers a 2026-07-28 request that carries its version in _meta, with no handshake at all", async () => {
    const _meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const { replies, code } = await exchange([{ id: 7, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 }, _meta } }]);
    expect(replies[0]).toMatchObject({
      id: 7,
      result: { content: [{ type: "text", text: "3" }], resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "learn-mcp-sdk-server" } } },
    });
    expect(code).toBe(0);
  });
});
