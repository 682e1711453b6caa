// Test helper: the official SDK client connected to this step's real server process, in the era a test asks for.
// The server is started as an MCP host would start it: a separate process, its folder as its argument.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

export type Era = "legacy" | "modern";
export const serverPath = fileURLToPath(new URL("../server.ts", import.meta.url));

export interface SdkConnection {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr: () => string;
  /** Closes the client and resolves once the server process is gone. */
  close: () => Promise<void>;
}

//#region connect
/** Starts `server.ts <folder>` and connects: the 2025 handshake (`legacy`), or pinned to 2026-07-28 (`modern`). */
export async function connect(folder: string, era: Era): Promise<SdkConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", import.meta.resolve("tsx"), serverPath, folder],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const mode = era === "legacy" ? "legacy" : { pin: "2026-07-28" };
  const client = new Client({ name: "learn-mcp-tests", version: "0.1.0" }, { versionNegotiation: { mode } });
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
  for (let attempt = 0; attempt < 250; attempt++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`server process ${pid} is still running`);
}

/** Calls a tool; returns its first text item and whether it is marked isError. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const first = result.content[0];
  return { text: first?.type === "text" ? first.text : "", isError: result.isError === true };
}
