// An MCP client written by hand: starts a stdio server, performs the handshake, lists and calls tools.
// It composes three parts: the transport (a child process), the connection (JSON-RPC) and the lifecycle.
import { Connection, type Notification } from "./connection.ts";
import { StdioTransport } from "./transport.ts";

export { JsonRpcError } from "./jsonrpc.ts";

export const PROTOCOL_VERSION = "2025-11-25";
// Versions whose initialize, tools/list and tools/call look the same as far as this client goes.
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18"];

export type Tool = { name: string; title?: string; description?: string; inputSchema: object };
export type Content = { type: string; text?: string; mimeType?: string; data?: string; [key: string]: unknown };
export type CallToolResult = { content: Content[]; structuredContent?: object; isError?: boolean };
export type InitializeResult = {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
};

export interface McpClientOptions {
  /** Default time a request may take, in milliseconds; each call can override it. */
  timeoutMs?: number;
  /** Receives every notification the server sends. */
  onNotification?: (notification: Notification) => void;
  /** Where problems that fail no request are reported (a non-JSON stdout line). Default: stderr. */
  warn?: (text: string) => void;
}

export class McpClient {
  #transport: StdioTransport;
  #connection: Connection;

  constructor(command: string, args: string[], options: McpClientOptions = {}) {
    const warn = options.warn ?? ((text: string) => process.stderr.write(`[client] ${text}\n`));
    const timeoutMs = options.timeoutMs ?? 30_000;
    this.#transport = new StdioTransport(command, args, (line) => this.#connection.receive(line));
    this.#connection = new Connection((line) => this.#transport.send(line), { ...options, timeoutMs, warn });
    // A dead server will never answer: fail everything still waiting now, not at each timeout.
    void this.#transport.exited.then((reason) => {
      const tail = this.#transport.stderrTail;
      this.#connection.failAll(new Error(`server ${reason}${tail ? `; its stderr ended with:\n${tail}` : ""}`));
    });
  }

  /** The server's process id, which is also its process group id. */
  get pid(): number | undefined {
    return this.#transport.pid;
  }

  //#region connect
  /** Performs the handshake: initialize, check the negotiated version, then notifications/initialized. */
  async connect(): Promise<InitializeResult> {
    const result = (await this.#connection.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "learn-mcp-client", version: "0.4.0" },
    })) as InitializeResult;
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
      await this.close();
      const supported = SUPPORTED_PROTOCOL_VERSIONS.join(", ");
      throw new Error(`server chose protocol version ${result.protocolVersion}; this client supports ${supported}`);
    }
    this.#connection.notify("notifications/initialized");
    return result;
  }
  //#endregion

  //#region tools
  /** Lists every tool, following `nextCursor` until the server has no more pages. */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = (await this.#connection.request("tools/list", cursor === undefined ? {} : { cursor })) as {
        tools: Tool[];
        nextCursor?: string;
      };
      tools.push(...page.tools);
      cursor = page.nextCursor;
      // A server that hands back a cursor twice would keep this loop going forever.
      if (cursor !== undefined && seen.has(cursor)) throw new Error(`tools/list repeated cursor ${cursor}`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls one tool. A tool that fails resolves with `isError: true`; a protocol error rejects with JsonRpcError. */
  async callTool(name: string, args: object = {}, options: { timeoutMs?: number } = {}): Promise<CallToolResult> {
    const result = await this.#connection.request("tools/call", { name, arguments: args }, options.timeoutMs);
    return result as CallToolResult;
  }
  //#endregion

  /** Stops the server and everything it started; see StdioTransport.close. */
  async close(graceMs?: number): Promise<void> {
    this.#connection.failAll(new Error("client closed"));
    await this.#transport.close(graceMs);
  }
}
