// Server log messages in both eras: the 2025 era sets one level per connection with logging/setLevel; the 2026-07-28
// era sends the level with each request, in _meta. That revision deprecates Logging, and SDK 2.4 still serves it in
// both.
import { LOG_LEVEL_META_KEY, type Client, type LoggingLevel } from "@modelcontextprotocol/client";

//#region receive-logs
/** Prints every notifications/message; returns the `_meta` each request must carry to get `level` (none in 2025). */
export async function receiveLogs(
  client: Client,
  level: LoggingLevel,
  print: (line: string) => void,
): Promise<Record<string, string>> {
  client.setNotificationHandler("notifications/message", ({ params }) => {
    print(`log ${params.level}: ${typeof params.data === "string" ? params.data : JSON.stringify(params.data)}`);
  });
  if (client.getProtocolEra() === "modern") {
    print(`logging: "${LOG_LEVEL_META_KEY}": "${level}" in each request's _meta`);
    return { [LOG_LEVEL_META_KEY]: level }; // without it, a 2026-07-28 server sends no log message at all
  }
  await client.setLoggingLevel(level); // without it, a 2025 server sends every level
  print(`logging: logging/setLevel "${level}", once for the connection`);
  return {};
}
//#endregion
