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

  /** A notification that belongs to this request: the answer becomes a stream, if it is not one yet. False, as
   * `write()`, when the client has not taken what it was sent yet. */
  notify(json: string): boolean {
    if (!this.#streaming) {
      this.#streaming = true;
      this.response.writeHead(200, {
        ...this.headers,
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
      });
    }
    return this.response.write(sseEvent(json));
  }

  /** The response to the request: the last event of a stream, or the whole body. False as for notify. */
  finish(json: string): boolean {
    if (this.#streaming) this.response.end(sseEvent(json));
    else this.response.writeHead(200, { ...this.headers, "content-type": "application/json" }).end(json);
    return this.held() <= this.response.writableHighWaterMark;
  }

  /** A JSON-RPC error in place of the response, for a request the server will never answer. */
  fail(code: number, message: string): void {
    this.finish(JSON.stringify({ jsonrpc: "2.0", id: this.id, error: { code, message } }));
  }

  /** Bytes sent and not taken by the client yet: in node's buffers and the socket's. */
  held(): number {
    return this.response.writableLength;
  }

  onClose(listener: () => void): void {
    this.response.on("close", listener);
  }

  /**
   * Calls `listener` once the client has taken what it was sent ("drain", or "finish" after the last part), or is gone.
   */
  onTaken(listener: () => void): void {
    const events = ["drain", "finish", "close"];
    const once = () => {
      for (const event of events) this.response.off(event, once);
      listener();
    };
    for (const event of events) this.response.on(event, once);
  }

  /** Drops the connection, and with it whatever the client has not taken yet. */
  abort(): void {
    this.response.destroy();
  }
}
//#endregion
