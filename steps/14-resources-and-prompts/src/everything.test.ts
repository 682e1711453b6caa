import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeOutcome } from "./content.ts";
import { callTool, connect, describeConnection, type Connection } from "./sdk-client.ts";
import { everythingServer } from "./servers.ts";

// server-everything is built on the previous SDK major; this client meets it in the legacy era, the default.
describe("server-everything, in legacy mode", { timeout: 60_000 }, () => {
  let server: Connection;
  beforeAll(async () => (server = await connect(everythingServer(), "legacy")), 60_000);
  afterAll(() => server?.close());

  it("connects with initialize and lists its tools", async () => {
    expect(describeConnection(server.client)).toMatch(/^legacy era, protocol 2025-11-25, mcp-servers\/everything \d/);
    const names = (await server.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-tiny-image", "get-resource-reference"]));
  });

  it("calls get-sum", async () => {
    expect(describeOutcome(await callTool(server.client, "get-sum", { a: 2, b: 40 }))).toEqual([
      "result",
      '  text "The sum of 2 and 40 is 42."',
    ]);
  });

  it("returns an image, sized after base64 decoding", async () => {
    const lines = describeOutcome(await callTool(server.client, "get-tiny-image"));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}image image\/png, \d+ bytes$/));
  });

  it("returns an embedded resource, shown by uri, MIME type and size", async () => {
    const lines = describeOutcome(await callTool(server.client, "get-resource-reference"));
    // "Resource 1: This is a plaintext resource created at HH:MM:SS" in the 24-hour locale the server is given.
    expect(lines).toContain("  resource demo://resource/dynamic/text/1 (text/plain), 60 bytes of text");
  });

  it("answers an unknown tool with a tool error, where the SDK v2 servers send a protocol error", async () => {
    // SDK v1's McpServer wraps the -32602 into an isError result: the channel is the server's choice.
    expect(describeOutcome(await callTool(server.client, "no_such_tool"))).toEqual([
      "tool error (isError: true)",
      '  text "MCP error -32602: Tool no_such_tool not found"',
    ]);
  });
});
