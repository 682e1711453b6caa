// One server's connection: the SDK's Client over a ServerTransport, with the handshake and tools/list bounded in
// time, and every failure told in one sentence: the server's exit or what went wrong, and its last stderr lines.
import { Client, SdkError, SdkErrorCode, type Tool } from "@modelcontextprotocol/client";
import { printable } from "./printable.ts";
import { upTo, type ServerTransport } from "./transport.ts";

/** What comes before a server's stderr lines in a report: whatever holds it is not for a model (manager.ts). */
export const STDERR_QUOTED = "; stderr: ";

/** How a server that is gone went: its exit (or what the transport saw), and the last lines of its stderr. */
export function exitReport(transport: ServerTransport, exit = transport.exitReason): string {
  const stderr = transport.stderrTail.length > 0 ? `${STDERR_QUOTED}${transport.stderrTail.join(" | ")}` : "";
  return `${transport.fault ?? exit}${stderr}`;
}

/** Why a request to the server failed: a timeout, the server's exit, or the error itself. */
export async function why(transport: ServerTransport, error: unknown, timeoutMs: number): Promise<string> {
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    return `no answer within ${timeoutMs} ms`;
  const closed = error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
  // the server answered with an error
  if (!closed && transport.exitReason === undefined) return (error as Error).message;
  const exit = await upTo(transport.exited, 500); // the pipe may close a moment before the exit is seen
  return exitReport(transport, exit ?? (error as Error).message);
}

/** Every tool a server offers, asked afresh rather than taken from the SDK's cache. */
export async function listTools(client: Client, timeoutMs: number): Promise<Tool[]> {
  // The SDK may keep a listing in its response cache; after list_changed only a fresh one is any use.
  return (await client.listTools(undefined, { timeout: timeoutMs, cacheMode: "refresh" })).tools;
}

//#region connect
/**
 * The handshake and the first tools/list; rejects with one sentence. `onListChanged` is set before anything can arrive.
 */
export async function connect(transport: ServerTransport, timeoutMs: number, onListChanged: (client: Client) => void) {
  const client = new Client({ name: "learn-mcp-manager", version: "0.1.0" });
  client.setNotificationHandler("notifications/tools/list_changed", () => onListChanged(client));
  // e.g. a message of the wrong shape
  client.onerror = (error) => transport.log(`[${printable(transport.name)}] ${printable(error.message)}`);
  let step = "the handshake";
  try {
    await client.connect(transport, { timeout: timeoutMs });
    step = "tools/list";
    return { client, tools: await listTools(client, timeoutMs) };
  } catch (error) {
    throw new Error(`${step} failed: ${await why(transport, error, timeoutMs)}`);
  }
}
//#endregion
