// Sessions for 2025-era clients: the one piece of state the server keeps. A session is an McpServer and its
// transport, made at initialize and found by the Mcp-Session-Id header until DELETE (or the server's stop) ends it.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type McpServer } from "@modelcontextprotocol/server";

export const MAX_SESSIONS = 32;

const refuse = (status: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });

export class Sessions {
  readonly #open = new Map<string, WebStandardStreamableHTTPServerTransport>();

  constructor(private readonly factory: () => McpServer) {}

  get size(): number {
    return this.#open.size;
  }

  /** A request with an Mcp-Session-Id goes to its session; one without may only open a new one (initialize). */
  async handle(request: Request): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) return this.#open.get(id)?.handleRequest(request) ?? refuse(404, "Session not found: it ended, or never was");
    if (this.#open.size >= MAX_SESSIONS) return refuse(503, `${MAX_SESSIONS} sessions are open; end one first`);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (session) => void this.#open.set(session, transport),
      onsessionclosed: (session) => void this.#open.delete(session),
    });
    await this.factory().connect(transport);
    const response = await transport.handleRequest(request); // anything but initialize is refused here, with 400
    if (transport.sessionId === undefined) await transport.close(); // no session was opened: nothing to keep
    return response;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#open.values()].map((transport) => transport.close()));
    this.#open.clear();
  }
}
