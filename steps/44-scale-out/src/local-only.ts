// Requests from this machine only: the guard against DNS rebinding, which the MCP handler leaves to the application.
// Host and Origin are parsed as host[:port] by hand, never through URL: URL drops userinfo, so "evil.com@localhost"
// would pass.
import type { IncomingMessage } from "node:http";

// One of the three spellings of this machine, nothing before or after it, and an optional port of up to five digits.
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;

/** `localhost`, `127.0.0.1` or `[::1]`, in any case, with an optional port from 1 to 65535; nothing else. */
export function isLocalHost(host: string): boolean {
  const match = LOCAL_HOST.exec(host);
  const port = Number(match?.[1] ?? 1); // no port: as good as any
  return match !== null && port >= 1 && port <= 65535;
}

/** `http://` or `https://` and a local host: what a page served from this machine sends. `null` is not one. */
export function isLocalOrigin(origin: string): boolean {
  const host = origin.replace(/^https?:\/\//i, "");
  return host !== origin && isLocalHost(host);
}

/** Why a request is refused for its Host or Origin, or undefined when both say it comes from this machine. */
export function checkLocal(request: IncomingMessage): { status: number; message: string } | undefined {
  // node keeps only the first Host in `headers.host`; RFC 9112 §3.2 makes none, or more than one, a bad request.
  const hosts = request.headersDistinct.host ?? [];
  if (hosts.length !== 1) return { status: 400, message: "Bad Request: a request needs exactly one Host header" };
  if (!isLocalHost(hosts[0]!)) return { status: 403, message: `Invalid Host: ${hosts[0]}` };
  const origin = request.headers.origin;
  if (origin !== undefined && !isLocalOrigin(origin)) return { status: 403, message: `Invalid Origin: ${origin}` };
  return undefined;
}
