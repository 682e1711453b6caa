// The official SDK's Client over its stdio transport: connect in a chosen protocol era, list tools, call them.
// callTool sorts every answer into a result, a tool error (isError) or a protocol error (a JSON-RPC error).
import { Client, ProtocolError, type CallToolResult, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";

//#region connect
// The probe's clock starts when the server is spawned, so it must cover a TypeScript server's start-up on a busy
// machine; a server that answers the probe with an error costs nothing, and a silent one costs the whole timeout.
export const PROBE_TIMEOUT_MS = 20_000;

export interface SdkConnection {
  client: Client;
  pid: number | null;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Closes the client, which stops the server; resolves once the server's stderr has ended with its exit. */
  close(): Promise<void>;
}

export async function connect(
  server: StdioServerParameters,
  mode: VersionNegotiationMode,
  probeTimeoutMs = PROBE_TIMEOUT_MS,
): Promise<SdkConnection> {
  const client = new Client(
    { name: "learn-mcp-client", version: "0.1.0" },
    { versionNegotiation: { mode, probe: { timeoutMs: probeTimeoutMs } } },
  );
  // Piped so that the server's log does not mix with ours, and read all along: a full pipe blocks the server.
  const transport = new StdioClientTransport({ ...server, stderr: "pipe" });
  let log = "";
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
  try {
    await client.connect(transport);
  } catch (error) {
    await transport.close(); // a failed connect may have started the server already
    throw error;
  }
  const close = async () => {
    await client.close();
    if (transport.stderr instanceof Readable) await finished(transport.stderr);
  };
  return { client, pid: transport.pid, stderr: () => log, close };
}
//#endregion

//#region describe
/** One line on what was negotiated: the era, the protocol revision and the server's name. */
export function describeConnection(client: Client): string {
  const server = client.getServerVersion();
  const name = server ? `${server.name} ${server.version}` : "an anonymous server";
  return `${client.getProtocolEra()} era, protocol ${client.getNegotiatedProtocolVersion()}, ${name}`;
}
//#endregion

//#region call
export type CallOutcome =
  | { kind: "result"; result: CallToolResult }
  | { kind: "tool error"; result: CallToolResult }
  | { kind: "protocol error"; code: number; message: string };

/** Calls a tool; a JSON-RPC error answer becomes an outcome, while timeouts and lost connections still throw. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallOutcome> {
  try {
    const result = await client.callTool({ name, arguments: args });
    // The tool ran and failed: the text is for the model, which may read it and try again.
    return { kind: result.isError === true ? "tool error" : "result", result };
  } catch (error) {
    // The server refused the request. The SDK's own failures (timeout, closed pipe) are SdkErrors and stay thrown.
    if (error instanceof ProtocolError) return { kind: "protocol error", code: error.code, message: error.message };
    throw error;
  }
}
//#endregion
