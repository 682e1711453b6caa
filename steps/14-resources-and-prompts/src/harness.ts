// Test harness: a temporary workspace with an outside neighbour, and the official SDK client on the real server.
// The server runs as a separate process, exactly as an MCP host would start it, in the era the test asks for.
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

export type Era = "legacy" | "modern";

/** `<base>/workspace` is served; `<base>/outside/secret.txt` must never be read or changed. */
export function makeFolders(): { base: string; workspace: string; outside: string; remove: () => void } {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), "learn-mcp-05-")));
  const workspace = path.join(base, "workspace");
  const outside = path.join(base, "outside");
  mkdirSync(path.join(workspace, "docs"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(workspace, "notes.txt"), "Inside the workspace.\n");
  writeFileSync(path.join(workspace, "docs", "readme.md"), "# Docs\n");
  writeFileSync(path.join(outside, "secret.txt"), "TOP SECRET\n");
  return { base, workspace, outside, remove: () => rmSync(base, { recursive: true, force: true }) };
}

export interface Connection {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  /** Closes the client and resolves once the server process is gone. */
  close: () => Promise<void>;
}

//#region connect
/** Starts `server.ts <workspace>` and connects in `era`: the default 2025 handshake, or pinned to 2026-07-28. */
export async function connect(workspace: string, era: Era): Promise<Connection> {
  const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", import.meta.resolve("tsx"), serverPath, workspace],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const mode = era === "legacy" ? "legacy" : { pin: "2026-07-28" };
  const client = new Client({ name: "step-05-tests", version: "0.5.0" }, { versionNegotiation: { mode } });
  await client.connect(transport);
  const pid = transport.pid;
  return {
    client,
    stderr: () => stderr,
    close: async () => {
      await client.close();
      if (pid !== null) await waitForExit(pid);
    },
  };
}
//#endregion

async function waitForExit(pid: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`server process ${pid} is still running`);
}

/** Calls a tool and returns its first text item and its isError flag. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const first = result.content[0];
  return { text: first?.type === "text" ? first.text : "", isError: result.isError === true };
}
