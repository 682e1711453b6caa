// How the bridge says no: a check that fails throws a Refusal, which one place turns into an HTTP status and a
// JSON-RPC error; and how it reads a request's headers.
import type { IncomingMessage } from "node:http";

/** A request the bridge will not serve: the HTTP status, and the message of the JSON-RPC error in the body. */
export class Refusal extends Error {
  /** `code` is the JSON-RPC error's code; `headers` go on the HTTP answer. */
  constructor(
    readonly status: number,
    message: string,
    readonly code = -32000,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A header as one string: node gives a list for a few known names, and joins repeats of the others with ", ". */
export function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}
