// The SDK's event bus, carried between cluster workers. A subscriptions/listen stream lives in the worker whose
// connection holds it; a change published in another worker travels worker -> primary -> every worker, and each
// delivers it to the streams it holds. Production puts a message broker (Redis, NATS) where the primary is here.
import cluster from "node:cluster";
import type { ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";

type BusMessage = { mcpEvent: ServerEvent };
const isBusMessage = (message: unknown): message is BusMessage =>
  typeof message === "object" && message !== null && "mcpEvent" in message;

/** In a worker: publish sends the event to the primary; whatever the primary relays reaches the local listeners. */
export class ClusterEventBus implements ServerEventBus {
  readonly #listeners = new Set<(event: ServerEvent) => void>();

  constructor() {
    process.on(
      "message",
      (message) => isBusMessage(message) && this.#listeners.forEach((listener) => listener(message.mcpEvent)),
    );
  }

  publish(event: ServerEvent): void {
    process.send!({ mcpEvent: event } satisfies BusMessage);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }
}

/** In the primary: every event a worker publishes goes to every worker, the publisher included. */
export function relayEvents(): void {
  cluster.on("message", (_from, message: unknown) => {
    if (!isBusMessage(message)) return;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send(message);
  });
}
