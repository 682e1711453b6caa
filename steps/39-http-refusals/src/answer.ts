// The answer to one POSTed request: plain JSON when the result comes alone, a stream of server-sent events when
// notifications come first. The choice is made by the first message, since a status line cannot be taken back.
import type { ServerResponse } from "node:http";

/** A JSON-RPC message, read only as far as the bridge needs. */
export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { progressToken?: unknown; _meta?: { progressToken?: unknown } };
  result?: unknown;
  error?: unknown;
}

/** One message as a server-sent event: its type, its JSON on one data line, and the blank line that ends it. */
export const sseEvent = (json: string) => `event: message\ndata: ${json}\n\n`;

//#region answer
export class Answer {
  #streaming = false;

  constructor(
    readonly response: ServerResponse,
    readonly id: JsonRpcMessage["id"],
    readonly headers: Record<string, string>,
  ) {}

  // Messages come as the JSON text the server wrote: they are passed on as they are, not parsed and written again.

  /** A notification that belongs to this request: the answer becomes a stream, if it is not one yet. */
  notify(json: string): void {
    if (!this.#streaming) {
      this.#streaming = true;
      this.response.writeHead(200, {
        ...this.headers,
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
      });
    }
    this.response.write(sseEvent(json));
  }

  /** The response to the request: the last event of a stream, or the whole body. */
  finish(json: string): void {
    if (this.#streaming) this.response.end(sseEvent(json));
    else this.response.writeHead(200, { ...this.headers, "content-type": "application/json" }).end(json);
  }

  /** A JSON-RPC error in place of the response, for a request the server will never answer. */
  fail(code: number, message: string): void {
    this.finish(JSON.stringify({ jsonrpc: "2.0", id: this.id, error: { code, message } }));
  }

  onClose(listener: () => void): void {
    this.response.on("close", listener);
  }
}
//#endregion
