// Bounds on what the server holds for its clients: connections, the request bodies being read, and slow requests.
// Without them, 150 connections each sending a 4 MiB body slowly cost the server over 800 MB: 600 MB of bodies, and
// copies.
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http";

export const MAX_CONNECTIONS = 64;
/** The SDK's own limit on one request body (its 413 answers a larger one). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The sum of the bodies being read at once; a request that would pass it gets 503 before its body is read. */
export const MAX_BYTES_IN_FLIGHT = 4 * MAX_BODY_BYTES;

// Headers within 5 s and the whole request within 10 s, or node answers 408 and closes: a slow client cannot hold a
// connection for good. Node checks every second; its default, 30 s, would let a request run three times its limit.
// A request without Host reaches checkLocal, which answers it as every other refusal (node's own 400 has no body).
export const TIMEOUTS: ServerOptions = {
  headersTimeout: 5_000,
  requestTimeout: 10_000,
  connectionsCheckingInterval: 1_000,
  requireHostHeader: false,
};

const BUSY = JSON.stringify({
  jsonrpc: "2.0",
  error: { code: -32000, message: "Service Unavailable: too many connections; try again" },
  id: null,
});

/**
 * Counts `server`'s open connections; one past MAX_CONNECTIONS is answered 503 and closed before anything of it is
 * read.
 */
export function boundConnections(server: Server): void {
  // server.maxConnections would close it without a word, and it counts wrong in a cluster's workers.
  let open = 0;
  server.on("connection", (socket) => {
    if (open === MAX_CONNECTIONS) {
      socket.pause(); // node's parser reads nothing of it, so no request listener runs for it
      const head =
        `HTTP/1.1 503 Service Unavailable\r\ncontent-type: ` +
        `application/json\r\ncontent-length: ${BUSY.length}\r\nconnection: close`;
      return void socket.end(`${head}\r\n\r\n${BUSY}`, () => socket.destroy());
    }
    open++;
    socket.once("close", () => open--);
  });
}

export class BodyBudget {
  #inFlight = 0;

  /**
   * Counts the body a request announces (a chunked one as the largest allowed) until it is read, or its answer done.
   */
  admit(request: IncomingMessage, response: ServerResponse): { status: number; message: string } | undefined {
    const announced = request.headers["transfer-encoding"]
      ? MAX_BODY_BYTES
      : Number(request.headers["content-length"] ?? 0);
    let held = Math.min(announced, MAX_BODY_BYTES);
    if (this.#inFlight + held > MAX_BYTES_IN_FLIGHT)
      return { status: 503, message: "Service Unavailable: too many request bodies are being read; try again" };
    this.#inFlight += held;
    const release = () => void ((this.#inFlight -= held), (held = 0));
    request.once("end", release);
    response.once("close", release); // also when the client goes away mid-body
    return undefined;
  }
}
