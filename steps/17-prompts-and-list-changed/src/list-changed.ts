// Hears notifications/resources/list_changed in both eras: unasked in 2025, after subscriptions/listen in 2026-07-28.
// The handler is the same in both eras; only the modern era needs a request that opens a stream for it first.
import type { Client, McpSubscription } from "@modelcontextprotocol/client";

export interface ResourceListWatch {
  /** How changes reach this client, for the demo to print. */
  how: string;
  /** The next notification; take it before making the change, since it may arrive before the tool's answer. */
  next(timeoutMs?: number): Promise<void>;
  /** Closes the modern era's subscription, if there is one. */
  close(): Promise<void>;
}

//#region watch
export async function watchResourceList(client: Client): Promise<ResourceListWatch> {
  const waiting = new Set<() => void>();
  client.setNotificationHandler("notifications/resources/list_changed", () => {
    for (const wake of waiting) wake();
    waiting.clear();
  });
  let subscription: McpSubscription | undefined;
  let how = "2025 era: the server sends list_changed unasked, on the same connection";
  if (client.getProtocolEra() === "modern") {
    // Without this request a 2026-07-28 server drops every change notification: there is no session to send it on.
    subscription = await client.listen({ resourcesListChanged: true });
    how = `2026-07-28 era: subscriptions/listen acknowledged ${JSON.stringify(subscription.honoredFilter)}`;
  }
  return { how, next: (timeoutMs = 5_000) => nextNotice(waiting, timeoutMs), close: async () => subscription?.close() };
}

// The timer is cleared either way, so a demo or test that waited leaves nothing running.
function nextNotice(waiting: Set<() => void>, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      waiting.delete(wake);
      reject(new Error(`no notifications/resources/list_changed within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.add(wake);
  });
}
//#endregion
