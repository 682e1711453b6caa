// The official SDK's Client over its stdio transport: connect in a chosen protocol era, list tools, call them.
// callTool sorts every answer into a result, a tool error (isError) or a protocol error (a JSON-RPC error).
import { Client, ProtocolError, type CallToolResult, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";

//#region connect
// The probe's clock starts when the server is spawned, so it must cover a TypeScript server's start-up
// on a busy machine (seen: 2–3 s under load); a server that answers the probe with an error costs nothing.
// Without it, a server that never answers server/discover costs the full default request timeout: 60 s.
export const PROBE_TIMEOUT_MS = 20_000;

export interface Connection {
  client: Client;
  /** The server's process id, so a test can check that close() stopped it. */
  pid: number | null;
  /** Closes the client, which stops the server, and resolves with everything the server wrote to stderr. */
  close(): Promise<string>;
}

export async function connect(
  server: StdioServerParameters,
  mode: VersionNegotiationMode,
  probeTimeoutMs = PROBE_TIMEOUT_MS,
): Promise<Connection> {
  const client = new Client(
    { name: "learn-mcp-06", version: "0.6.0" },
    { versionNegotiation: { mode, probe: { timeoutMs: probeTimeoutMs } } },
  );
  // Piped rather than inherited, so the server's log does not interleave with ours; it is read all along,
  // because a pipe nobody reads fills up and blocks the server on its next log line.
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
    // stderr ends after the server has exited; waiting for its end makes the log complete.
    if (transport.stderr instanceof Readable) await finished(transport.stderr);
    return log;
  };
  return { client, pid: transport.pid, close };
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
    // The tool ran and failed: the message is for the model, which may read it and try again.
    return { kind: result.isError === true ? "tool error" : "result", result };
  } catch (error) {
    // The request itself was refused. The SDK's own failures (timeout, closed pipe) are SdkErrors and stay thrown.
    if (error instanceof ProtocolError) return { kind: "protocol error", code: error.code, message: error.message };
    throw error;
  }
}
//#endregion
