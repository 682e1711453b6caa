// The bridge's connections, bounded in number and in how long a request may take to arrive. Past the bound, the one
// that has waited longest for its request makes room: refusing the newcomer would let slow clients lock out the rest.
import type { Server } from "node:http";
import type { Socket } from "node:net";

export const MAX_CONNECTIONS = 128;

//#region connections
/** For createServer: the headers within 5 s, the whole request within 10 s (node checks both every second). */
export const TIMEOUTS = { headersTimeout: 5_000, requestTimeout: 10_000, connectionsCheckingInterval: 1_000 };

/**
 * Past `max` connections, closes the one that has waited longest for its request to arrive in full, or the newcomer if
 * no other is waiting: an idle keep-alive connection, or one whose answer is being sent, is never chosen.
 */
export function boundConnections(http: Server, max = MAX_CONNECTIONS): void {
  const open = new Set<Socket>();
  const arriving = new Set<Socket>(); // a Set keeps the order of insertion: the first has waited longest
  const forget = (socket: Socket) => void (open.delete(socket), arriving.delete(socket));
  http.on("connection", (socket: Socket) => {
    open.add(socket);
    arriving.add(socket);
    socket.on("close", () => forget(socket));
    if (open.size <= max) return;
    const oldest = arriving.values().next().value!;
    forget(oldest);
    oldest.destroy();
  });
  http.on("request", (request) => {
    arriving.add(request.socket); // a keep-alive connection's next request waits again
    request.once("end", () => arriving.delete(request.socket));
  });
}
//#endregion
