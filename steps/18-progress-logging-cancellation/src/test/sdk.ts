// Test helper: this step's server as a separate process, connected through the step's own client in the era a test asks
// for. The server is started as an MCP host would start it: a command line with its folder as the argument.
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { connect as connectTo, type SdkConnection } from "../sdk-client.ts";
import { sdkServer } from "../servers.ts";

export type Era = "legacy" | "modern";
export type { SdkConnection };
export const serverPath = fileURLToPath(new URL("../server.ts", import.meta.url));

/** Starts `server.ts <folder>` and connects: the 2025 handshake (`legacy`), or pinned to 2026-07-28 (`modern`). */
export const connect = (folder: string, era: Era): Promise<SdkConnection> =>
  connectTo(sdkServer(folder), era === "legacy" ? "legacy" : { pin: "2026-07-28" });

/** Calls a tool; returns its first text item and whether it is marked isError. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const first = result.content[0];
  return { text: first?.type === "text" ? first.text : "", isError: result.isError === true };
}
