// The one client of every HTTP row: node's http module with a keep-alive Agent of at most 64 connections. Not fetch: on
// Node 20 here, fetch spent several times this CPU per call (fetch-vs-http.mjs), CPU a server needs on 2 cores.
import { Agent, request, type IncomingHttpHeaders } from "node:http";

/** How a row is spoken to: the floor's bare request, a 2025-11-25 session (the bridge), or 2026-07-28 requests. */
export type Era = "floor" | "session" | "modern";

export interface AddClient {
  /** Opens what the row needs before any call: the bridge's session; nothing for the others. */
  open(): Promise<void>;
  /** Calls the `add` tool; resolves with the text of the result. */
  add(a: number, b: number): Promise<string>;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}
type Message = {
  id?: number;
  result?: { content?: { text?: string }[]; isError?: boolean };
  error?: { message: string };
};

//#region requests
// The modern envelope: everything the server needs rides in the request, so no initialize and no session come first.
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

export class HttpClient implements AddClient {
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 64 });
  readonly #url: URL;
  #nextId = 1;
  #session: string | undefined;
  /** Which process answered, for the servers that say so (the cluster's `x-served-by`), counted per name. */
  readonly servedBy: Record<string, number> = {};

  constructor(
    url: string,
    readonly era: Era,
  ) {
    this.#url = new URL(url);
  }

  async open(): Promise<void> {
    if (this.era !== "session") return;
    const clientInfo = { name: "learn-mcp-bench", version: "0.1.0" };
    const init = await this.#post({
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo },
    });
    this.#session = init.headers["mcp-session-id"] as string | undefined;
    if (init.status !== 200 || this.#session === undefined)
      throw new Error(`initialize: HTTP ${init.status} ${init.body.slice(0, 200)}`);
    const initialized = await this.#post({ method: "notifications/initialized" }, false);
    if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  }

  async add(a: number, b: number): Promise<string> {
    const params = { name: "add", arguments: { a, b }, ...(this.era === "modern" && { _meta: MODERN_META }) };
    const id = this.#nextId;
    const reply = await this.#post({ method: "tools/call", params });
    const served = reply.headers["x-served-by"];
    if (typeof served === "string") this.servedBy[served] = (this.servedBy[served] ?? 0) + 1;
    const message = answerTo(id, reply);
    const text = message.result?.content?.[0]?.text;
    if (message.result?.isError || typeof text !== "string")
      throw new Error(`add: ${JSON.stringify(message).slice(0, 200)}`);
    return text;
  }

  /** Ends the bridge's session with DELETE, as a client should, then closes every connection. */
  async close(): Promise<void> {
    try {
      if (this.#session !== undefined) await this.#send("DELETE", this.#headers(), "");
    } finally {
      this.#agent.destroy();
    }
  }
  //#endregion

  //#region wire
  #headers(method?: string, name?: string): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json, text/event-stream" };
    headers["mcp-protocol-version"] = this.era === "modern" ? "2026-07-28" : "2025-11-25";
    if (this.#session !== undefined) headers["mcp-session-id"] = this.#session;
    if (this.era === "modern" && method !== undefined) headers["mcp-method"] = method;
    if (this.era === "modern" && name !== undefined) headers["mcp-name"] = name;
    return headers;
  }

  /** POSTs one message: a request (with the next id) unless `withId` is false. */
  #post(
    message: { method: string; params?: { name?: string; [field: string]: unknown } },
    withId = true,
  ): Promise<Reply> {
    const body = JSON.stringify({ jsonrpc: "2.0", ...(withId && { id: this.#nextId++ }), ...message });
    const headers = { ...this.#headers(message.method, message.params?.name), "content-type": "application/json" };
    return this.#send("POST", headers, body);
  }

  #send(method: string, headers: Record<string, string>, body: string): Promise<Reply> {
    const { hostname, port, pathname } = this.#url;
    const options = {
      agent: this.#agent,
      hostname,
      port,
      path: pathname,
      method,
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
    };
    return new Promise((resolve, reject) => {
      const outgoing = request(options, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      });
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  }
  //#endregion
}

/** The response to request `id`: the body itself, or the `data:` event that carries it in an SSE stream. */
function answerTo(id: number, reply: Reply): Message {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 200)}`);
  const sse = reply.headers["content-type"]?.startsWith("text/event-stream");
  const messages: Message[] = sse
    ? reply.body
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(reply.body)];
  const answer = messages.find(
    (message) => message.id === id && (message.result !== undefined || message.error !== undefined),
  );
  if (answer === undefined) throw new Error(`no answer to request ${id} in: ${reply.body.slice(0, 200)}`);
  if (answer.error) throw new Error(`add: ${answer.error.message}`);
  return answer;
}
