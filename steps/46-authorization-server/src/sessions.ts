// LegacySessions for 2025-era clients: the one piece of state the server keeps. A session is an McpServer and its
// transport, made at initialize and found by the Mcp-Session-Id header and the token's owner until DELETE ends it.
import { randomUUID } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServer } from "@modelcontextprotocol/server";

export const MAX_SESSIONS = 32;

/** Who a token speaks for, as a key: its subject (the user) and the client it was issued to. */
const ownerOf = (authInfo?: AuthInfo) => JSON.stringify([authInfo?.extra?.subject ?? null, authInfo?.clientId ?? null]);

const refuse = (status: number, message: string): Response =>
  Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });

export class LegacySessions {
  // A Map keeps the order in which keys were set; each request sets its session again, so the first is the least
  // recently used.
  readonly #open = new Map<string, WebStandardStreamableHTTPServerTransport>();
  // Kept by transport, an owner is forgotten with its session: ending one has nothing more to clean up.
  readonly #owners = new WeakMap<WebStandardStreamableHTTPServerTransport, string>();

  constructor(private readonly factory: () => McpServer) {}

  get size(): number {
    return this.#open.size;
  }

  /** A request with an Mcp-Session-Id goes to its session; one without may only open a new one (initialize). */
  async handle(request: Request, authInfo?: AuthInfo): Promise<Response> {
    const id = request.headers.get("mcp-session-id");
    const owner = ownerOf(authInfo);
    if (id !== null) {
      const transport = this.#open.get(id);
      // A session belongs to whoever opened it (the security best practices' rule against session hijacking: bind the
      // id to the user). Under another owner's token the id names no session, so 404, as for any unknown id; a 403
      // would tell the holder of a leaked id that it is live.
      if (transport === undefined || this.#owners.get(transport) !== owner)
        return refuse(404, "Session not found: it ended, or never was");
      this.#open.delete(id);
      this.#open.set(id, transport);
      return transport.handleRequest(request, { authInfo });
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (session) => void this.#open.set(session, transport),
      onsessionclosed: (session) => void this.#open.delete(session),
    });
    this.#owners.set(transport, owner);
    await this.factory().connect(transport);
    // anything but initialize is refused here, with 400
    const response = await transport.handleRequest(request, { authInfo });
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
