// An MCP client written by hand: starts a stdio server, performs the handshake, lists and calls tools.
// It trusts nothing the server says: every result is checked before use, and paging is bounded.
import { Connection, type Notification } from "./connection.ts";
import { isObject } from "./jsonrpc.ts";
import { StdioTransport } from "./transport.ts";

export { JsonRpcError } from "./jsonrpc.ts";

//#region versions
// Newest first; the tools of all four revisions look the same as far as this client goes.
export const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
// A server that keeps handing out cursors is either broken or hostile: 100 pages is far beyond any real server.
export const MAX_PAGES = 100;
//#endregion

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

/** The error for an answer to `what` that does not have the shape MCP gives it. */
const malformed = (what: string, value: unknown) =>
  new Error(`${what} returned a malformed result: ${JSON.stringify(value)?.slice(0, 200)}`);

export class McpClient {
  #transport: StdioTransport;
  #connection: Connection;

  //#region start
  /** Starts `command` with `args` as the server; the handshake waits for connect(). */
  constructor(command: string, args: string[], options: McpClientOptions = {}) {
    this.#transport = new StdioTransport(command, args);
    const { toServer, fromServer } = this.#transport;
    this.#connection = new Connection(toServer, fromServer, {
      ...options,
      // A connection that failed for good (output closed, a line over the limit) will never work again: stop the
      // server.
      onFailure: () => void this.#transport.close(),
      onClose: () => void this.#transport.whyOutputClosed().then((reason) => this.#serverGone(reason)),
    });
    // A dead server will never answer: fail everything still waiting now, not at each timeout.
    void this.#transport.exited.then((reason) => this.#serverGone(reason));
  }

  /** Fails every waiting request with why the server went, and the end of its stderr. */
  #serverGone(reason: string): void {
    const tail = this.#transport.stderrTail;
    this.#connection.failAll(new Error(`server ${reason}${tail ? `; its stderr ended with:\n${tail}` : ""}`));
  }
  //#endregion

  /** The server's process id, which is also its process group id. */
  get pid(): number | undefined {
    return this.#transport.pid;
  }

  //#region connect
  /** Performs the handshake; a server that fails it is stopped before the error is thrown. */
  async connect(): Promise<InitializeResult> {
    try {
      return await this.#initialize();
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /** initialize, check the answer and the negotiated version, then notifications/initialized. */
  async #initialize(): Promise<InitializeResult> {
    const result = await this.#connection.request("initialize", {
      protocolVersion: SUPPORTED_VERSIONS[0],
      capabilities: {},
      clientInfo: { name: "learn-mcp-client", version: "0.7.0" },
    });
    if (!isObject(result) || typeof result.protocolVersion !== "string" || !isObject(result.serverInfo)) {
      throw malformed("initialize", result);
    }
    if (!SUPPORTED_VERSIONS.includes(result.protocolVersion)) {
      throw new Error(
        `server chose protocol version ${result.protocolVersion}; ` +
          `this client supports ${SUPPORTED_VERSIONS.join(", ")}`,
      );
    }
    this.#connection.notify("notifications/initialized");
    return result as InitializeResult;
  }
  //#endregion

  //#region tools
  /** Lists every tool, following `nextCursor` for at most MAX_PAGES pages. */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; page === 1 || cursor !== undefined; page++) {
      if (page > MAX_PAGES) throw new Error(`tools/list went past ${MAX_PAGES} pages; giving up`);
      const result = await this.#connection.request("tools/list", cursor === undefined ? {} : { cursor });
      if (
        !isObject(result) ||
        !Array.isArray(result.tools) ||
        !result.tools.every((tool) => isObject(tool) && typeof tool.name === "string")
      ) {
        throw malformed("tools/list", result);
      }
      // One push per tool: spreading 200,000 of them into push() would overflow the call stack.
      for (const tool of result.tools) tools.push(tool as Tool);
      cursor = result.nextCursor === undefined ? undefined : String(result.nextCursor);
      if (cursor !== undefined && seen.has(cursor))
        throw new Error(`tools/list repeated the cursor ${JSON.stringify(cursor)}`);
      if (cursor !== undefined) seen.add(cursor);
    }
    return tools;
  }

  /** Calls one tool. A tool that fails resolves with `isError: true`; a protocol error rejects with JsonRpcError. */
  async callTool(name: string, args: object = {}, options: { timeoutMs?: number } = {}): Promise<CallToolResult> {
    const result = await this.#connection.request("tools/call", { name, arguments: args }, options.timeoutMs);
    if (!isObject(result) || !Array.isArray(result.content) || !result.content.every(isObject))
      throw malformed("tools/call", result);
    return result as CallToolResult;
  }
  //#endregion

  /** Stops the server and everything it started; see StdioTransport.close. */
  async close(graceMs?: number): Promise<void> {
    const closing = this.#transport.close(graceMs);
    this.#connection.failAll(new Error("client closed"));
    await closing;
  }
}
