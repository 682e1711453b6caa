// The official SDK client against the hand-written server, in legacy and in auto negotiation mode.
// Auto mode first probes server/discover; the server's immediate -32601 must send it to initialize at once.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";

// Starting servers under tsx can take seconds on a loaded machine; a silent server would cost 60 s.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
let sandbox: string;
let client: Client | undefined;

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-03-sdk-"));
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});
afterAll(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

//#region connect
/** Connects an SDK client; the server gets its settings as arguments, since the SDK passes on little environment. */
async function connect(mode: "legacy" | "auto"): Promise<{ transport: StdioClientTransport; elapsedMs: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", import.meta.resolve("tsx"), serverPath, sandbox],
    stderr: "ignore",
  });
  client = new Client({ name: "sdk-test", version: "1.0.0" }, { versionNegotiation: { mode } });
  const started = performance.now();
  await client.connect(transport);
  return { transport, elapsedMs: performance.now() - started };
}
//#endregion

async function listAndCall(connected: Client): Promise<void> {
  const { tools } = await connected.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["add", "echo", "createFile", "get_current_time"]);
  expect(await connected.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toEqual({ content: [{ type: "text", text: "42" }] });
  const refused = await connected.callTool({ name: "add", arguments: { a: 2 } });
  expect(refused).toEqual({ content: [{ type: "text", text: 'Invalid arguments for add: "b" is required' }], isError: true });
}

test("legacy mode: initialize, list and call tools", async () => {
  await connect("legacy");
  expect(client!.getNegotiatedProtocolVersion()).toBe("2025-11-25");
  expect(client!.getServerVersion()).toEqual({ name: "learn-mcp-03", version: "0.1.0" });
  expect(client!.getServerCapabilities()).toEqual({ tools: {} });
  expect(client!.getInstructions()).toContain("createFile writes inside one sandbox folder");
  await listAndCall(client!);
});

test("auto mode: the server/discover probe fails fast, and the client falls back to initialize", async () => {
  // No probe timeout is set: a server that stayed silent would hold connect() for the default 60 s.
  // About 1.5 s here (two server starts); the bound leaves room for a loaded CI machine.
  const { elapsedMs } = await connect("auto");
  expect(elapsedMs).toBeLessThan(15_000);
  expect(client!.getProtocolEra()).toBe("legacy");
  expect(client!.getNegotiatedProtocolVersion()).toBe("2025-11-25");
  await listAndCall(client!);
});

test("close() ends the server process", async () => {
  const { transport } = await connect("legacy");
  const pid = transport.pid!;
  await client!.close();
  client = undefined;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(alive()).toBe(false);
});
