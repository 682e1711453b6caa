// Real peers nobody in this project wrote: the official SDK client and the MCP Inspector CLI against this server.
// The SDK client runs in legacy and in auto mode; auto probes server/discover first and must fall back at once.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";

// Starting servers under tsx can take seconds on a loaded machine; a silent server would cost 60 s.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const serverArgs = (sandbox: string) => ["--import", import.meta.resolve("tsx"), serverPath, sandbox];
let sandbox: string;
let client: Client | undefined;

beforeAll(async () => {
  sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-sdk-client-test-"));
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});
afterAll(async () => {
  await rm(sandbox, { recursive: true, force: true });
});

/** Connects an SDK client; the server gets its settings as arguments, since the SDK passes on little environment. */
async function connect(mode: "legacy" | "auto"): Promise<{ transport: StdioClientTransport; elapsedMs: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(sandbox),
    stderr: "ignore",
  });
  client = new Client(
    { name: "sdk-test", version: "1.0.0" },
    { versionNegotiation: { mode, probe: { timeoutMs: 20_000 } } },
  );
  const started = performance.now();
  await client.connect(transport);
  return { transport, elapsedMs: performance.now() - started };
}

async function listAndCall(connected: Client): Promise<void> {
  const { tools } = await connected.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["add", "echo", "createFile"]);
  expect(await connected.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toEqual({
    content: [{ type: "text", text: "42" }],
  });
  const refused = await connected.callTool({ name: "add", arguments: { a: 2 } });
  expect(refused).toEqual({
    content: [{ type: "text", text: 'Invalid arguments for add: "b" is required' }],
    isError: true,
  });
}

test("legacy mode: initialize, list and call tools", async () => {
  await connect("legacy");
  expect(client!.getNegotiatedProtocolVersion()).toBe("2025-11-25");
  expect(client!.getServerVersion()).toEqual({ name: "learn-mcp-by-hand", version: "0.6.0" });
  expect(client!.getServerCapabilities()).toEqual({ tools: {} });
  expect(client!.getInstructions()).toContain("createFile writes inside one sandbox folder");
  await listAndCall(client!);
});

test("auto mode: the server/discover probe fails fast, and the client falls back to initialize", async () => {
  // The probe is answered with -32601 at once, so connecting takes two server starts, never the probe's timeout.
  const { elapsedMs } = await connect("auto");
  expect(elapsedMs).toBeLessThan(15_000);
  expect(client!.getProtocolEra()).toBe("legacy");
  await listAndCall(client!);
});

//#region inspector
const require = createRequire(import.meta.url);
const inspectorDir = path.dirname(require.resolve("@modelcontextprotocol/inspector/package.json"));
const inspectorBin = path.join(inspectorDir, require("@modelcontextprotocol/inspector/package.json").bin.inspector);

/** Runs the Inspector CLI against the server; it keeps its state in the sandbox, not in the home folder. */
async function inspector(...args: string[]): Promise<{ code: number; stdout: string }> {
  const env = {
    ...process.env,
    MCP_CATALOG_PATH: path.join(sandbox, "catalog.json"),
    MCP_CLIENT_CONFIG_PATH: path.join(sandbox, "client.json"),
  };
  const argv = [
    inspectorBin,
    "--cli",
    process.execPath,
    ...serverArgs(sandbox),
    "--connect-timeout",
    "30000",
    ...args,
    "--format",
    "json",
    "-q",
  ];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, argv, { env });
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}
//#endregion

test("the Inspector CLI lists the tools and calls add", async () => {
  const listed = await inspector("--method", "tools/list");
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).result.tools.map((tool: { name: string }) => tool.name)).toEqual([
    "add",
    "echo",
    "createFile",
  ]);
  const called = await inspector("--method", "tools/call", "--tool-name", "add", "--tool-args-json", '{"a":2,"b":40}');
  expect(called.code).toBe(0);
  expect(JSON.parse(called.stdout).result.content).toEqual([{ type: "text", text: "42" }]);
});
