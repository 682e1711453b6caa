// What a Streamable HTTP server checks before a message reaches the stdio server: who calls (Host, Origin), what
// was sent (the path, Content-Type, Accept, MCP-Protocol-Version, one JSON-RPC message) and how much, as it arrives.
import type { IncomingMessage } from "node:http";
import type { JsonRpcMessage } from "./answer.ts";

export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const SUPPORTED_VERSIONS = ["2025-03-26", "2025-06-18", "2025-11-25"];

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

//#region local
// host[:port] read by hand: `URL` drops userinfo (`evil.com@localhost` would pass as localhost) and throws on some
// forms.
const LOCAL_HOST = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;
function isLocalHost(host: string): boolean {
  const match = LOCAL_HOST.exec(host);
  return match !== null && (match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65535));
}
const isLocalOrigin = (origin: string) =>
  /^https?:\/\//i.test(origin) && isLocalHost(origin.replace(/^https?:\/\//i, ""));

/**
 * A web page can make a browser send requests to 127.0.0.1 (DNS rebinding), but its Host or Origin names its own site.
 */
export function checkLocal(request: IncomingMessage): void {
  const hosts = request.headersDistinct.host ?? []; // node keeps only the first of several in headers.host
  if (hosts.length !== 1) throw new Refusal(400, `a request carries one Host header, not ${hosts.length}`);
  if (!isLocalHost(hosts[0]!)) throw new Refusal(403, `Host ${JSON.stringify(hosts[0])} is not this machine`);
  const { origin } = request.headers;
  if (origin !== undefined && !isLocalOrigin(origin))
    throw new Refusal(403, `Origin ${JSON.stringify(origin)} is not this machine`);
}
//#endregion

//#region target
// An origin-form request-target (`/mcp?x=1`) by RFC 3986's characters. Not through `URL`, which throws on `//%` and
// would read `//evil/mcp` as the path /mcp of a host.
const ORIGIN_FORM = /^((?:\/(?:[\w.~!$&'()*+,;=:@-]|%[\da-f]{2})*)+)(?:\?(?:[\w.~!$&'()*+,;=:@/?-]|%[\da-f]{2})*)?$/i;

/** The path of a request-target, which must be a path (origin-form). */
export function targetPath(target = ""): string {
  const path = ORIGIN_FORM.exec(target)?.[1];
  if (path === undefined) throw new Refusal(400, `the request-target ${JSON.stringify(target)} is not a path`);
  return path;
}
//#endregion

//#region headers
const mediaTypes = (header: string | undefined) =>
  (header ?? "").split(",").map((type) => type.split(";")[0]!.trim().toLowerCase());

export function checkPostHeaders(request: IncomingMessage): void {
  if (mediaTypes(request.headers["content-type"])[0] !== "application/json")
    throw new Refusal(415, "Content-Type must be application/json");
  const accept = mediaTypes(request.headers.accept);
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
    throw new Refusal(406, "Accept must list both application/json and text/event-stream");
  }
}

/** A request without the header is taken as 2025-03-26, the revision before the header existed. */
export function checkVersion(request: IncomingMessage): void {
  const version = header(request, "mcp-protocol-version") ?? "2025-03-26";
  if (!SUPPORTED_VERSIONS.includes(version)) {
    throw new Refusal(
      400,
      `MCP-Protocol-Version ${version} is not supported; this bridge speaks ${SUPPORTED_VERSIONS.join(", ")}`,
    );
  }
}
//#endregion

//#region body
/** The body, up to `max` bytes; past that nothing more is kept, so a body that never ends holds nothing. */
export function readBody(request: IncomingMessage, max = MAX_BODY_BYTES): Promise<Buffer> {
  const tooLarge = () => new Refusal(413, `the body is over ${max} bytes`);
  if (Number(request.headers["content-length"]) > max) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const take = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= max) return void chunks.push(chunk);
      request.off("data", take).pause();
      reject(tooLarge());
    };
    request
      .on("data", take)
      .on("end", () => resolve(Buffer.concat(chunks)))
      .on("error", reject);
  });
}

/** One JSON-RPC message: a request, a notification or a response. */
export function parseMessage(body: Buffer): JsonRpcMessage {
  let message: unknown;
  try {
    message = JSON.parse(body.toString("utf8"));
  } catch {
    throw new Refusal(400, "Parse error: the body is not JSON", -32700);
  }
  if (Array.isArray(message))
    throw new Refusal(400, "a batch (JSON array) is not accepted: 2025-06-18 removed batches", -32600);
  const { jsonrpc, method, result, error } = (message ?? {}) as JsonRpcMessage;
  if (
    typeof message !== "object" ||
    jsonrpc !== "2.0" ||
    (typeof method !== "string" && result === undefined && error === undefined)
  ) {
    throw new Refusal(400, "Invalid Request: not a JSON-RPC 2.0 message", -32600);
  }
  return message as JsonRpcMessage;
}
//#endregion
