// LegacySessions for 2025-era clients: the one piece of state the server keeps. A session is an McpServer and its
// transport, made at initialize and found by the Mcp-Session-Id header until DELETE (or the server's stop) ends it.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";

export const MAX_SESSIONS = 32;

const refuse = (status: number, message: string): Response =>
  Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });

export class LegacySessions {
  // A Map keeps the order in which keys were set; each request sets its session again, so the first is the least
  // recently used.
  readonly #open = new Map<string, WebStandardStreamableHTTPServerTransport>();

  constructor(private readonly factory: () => McpServer) {}

  get size(): number {
    return this.#open.size;
  }

  /** A request with an Mcp-Session-Id goes to its session; one without may only open a new one (initialize). */
  async handle(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const transport = this.#open.get(id);
      if (transport === undefined) return refuse(404, "Session not found: it ended, or never was");
      this.#open.delete(id);
      this.#open.set(id, transport);
      return transport.handleRequest(request);
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (session) => void this.#open.set(session, transport),
      onsessionclosed: (session) => void this.#open.delete(session),
    });
    await this.factory().connect(transport);
    const response = await transport.handleRequest(request); // anything but initialize is refused here, with 400
    if (transport.sessionId === undefined)
      await transport.close(); // no session was opened: nothing to keep
    else if (this.#open.size > MAX_SESSIONS) await this.#endLeastRecent();
    return response;
  }

  /** Ends the session used least recently, to make room for a new one. */
  // A client can go away without DELETE (the SDK's close() sends none), and its session would stay for good: past the
  // bound, the session used least recently ends. Its client gets 404 next time, which means "initialize again".
  async #endLeastRecent(): Promise<void> {
    const [id, transport] = this.#open.entries().next().value!;
    this.#open.delete(id);
    console.error(`[server] session ${id} ended to make room: it was used least recently of ${MAX_SESSIONS + 1}`);
    await transport.close();
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#open.values()].map((transport) => transport.close()));
    this.#open.clear();
  }
}
