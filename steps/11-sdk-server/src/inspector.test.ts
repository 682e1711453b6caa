// A peer nobody in this project wrote: the MCP Inspector's command line, run from node_modules against the server.
// With --format json -q it prints {"result": …} on stdout; a tool error exits 5 with the result still on stdout.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { serverPath } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 90_000 });

const require = createRequire(import.meta.url);
const inspectorPackage = require.resolve("@modelcontextprotocol/inspector/package.json");
const inspectorBin = path.join(
  path.dirname(inspectorPackage),
  JSON.parse(readFileSync(inspectorPackage, "utf8")).bin.inspector,
);

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));
// The Inspector keeps a catalog and a client configuration under the home folder unless told otherwise.
const env = {
  ...process.env,
  MCP_CATALOG_PATH: path.join(base, "catalog.json"),
  MCP_CLIENT_CONFIG_PATH: path.join(base, "client.json"),
};

async function inspector(era: string, ...method: string[]): Promise<{ status: number; output: any }> {
  const server = [process.execPath, "--import", import.meta.resolve("tsx"), serverPath, base];
  // Its own connect timeout (15 s) is shorter than a slow start-up on a busy machine.
  const flags = ["--protocol-era", era, "--connect-timeout", "60000", "--format", "json", "-q"];
  const child = spawn(process.execPath, [inspectorBin, "--cli", ...server, "--method", ...method, ...flags], {
    env,
    timeout: 80_000,
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.resume();
  const [status] = await once(child, "close");
  return { status, output: stdout ? JSON.parse(stdout) : undefined };
}

describe.each(["legacy", "modern"])("the Inspector CLI, %s era", (era) => {
  it("lists the three tools", async () => {
    const { status, output } = await inspector(era, "tools/list");
    expect(status).toBe(0);
    expect(output.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["add", "echo", "createFile"]);
  });

  it("calls add; only a modern result names the server in its _meta", async () => {
    const { status, output } = await inspector(
      era,
      "tools/call",
      "--tool-name",
      "add",
      "--tool-args-json",
      '{"a":2,"b":40}',
    );
    expect(status).toBe(0);
    expect(output.result.content).toEqual([{ type: "text", text: "42" }]);
    const serverInfo = output.result._meta?.["io.modelcontextprotocol/serverInfo"];
    expect(serverInfo).toEqual(era === "modern" ? { name: "learn-mcp-sdk", version: "0.1.0" } : undefined);
  });

  it("exits 5 on a refused createFile, with the refusal as the result", async () => {
    const args = JSON.stringify({ path: "../escape.txt", content: "x" });
    const { status, output } = await inspector(
      era,
      "tools/call",
      "--tool-name",
      "createFile",
      "--tool-args-json",
      args,
    );
    expect(status).toBe(5);
    expect(output.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'createFile refused "../escape.txt": the path must not contain ".."' }],
    });
  });
});
