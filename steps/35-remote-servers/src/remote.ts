// A remote server's transport: the SDK's Streamable HTTP client, sent the entry's headers on every request, with what
// the manager asks of any transport: a name, where to log, how it ended, and why a request failed, in one sentence.
import { SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { HttpEntry } from "./config.ts";

// A remote server is a peer like any other: what it can make the host hold is bounded, as the manager bounds a line.
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
// where one server-sent event ends
const BLANK_LINES = [Buffer.from("\n\n"), Buffer.from("\n\r\n"), Buffer.from("\r\r")];

/** fetch, with every response body bounded: a JSON body, or one server-sent event of a stream, up to `max` bytes.
 * Past that the body fails, and `overflow` is told why. */
export function boundedFetch(overflow: (why: string) => void, max = MAX_MESSAGE_BYTES) {
  return async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (response.body === null) return response;
    const stream = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
    let held = 0; // bytes of the body, or of the event under way
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          const ends = stream ? BLANK_LINES.map((blank) => bytes.indexOf(blank)).filter((at) => at !== -1) : [];
          // The event under way ends at the chunk's first blank line, and the last one starts the next event.
          const first = ends.length > 0 ? Math.min(...ends) : bytes.length;
          const after =
            ends.length > 0 ? bytes.length - Math.max(...BLANK_LINES.map((blank) => bytes.lastIndexOf(blank))) : 0;
          const over = held + first > max || after > max;
          held = ends.length > 0 ? after : held + bytes.length;
          if (!over) return controller.enqueue(chunk);
          const why = `the server sent ${stream ? "an event" : "a body"} of more than ${max} bytes`;
          overflow(why);
          controller.error(new Error(why));
        },
      }),
    );
    return new Response(bounded, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

// Headers whose value is a credential, by name: these, and any name ending in key, token or secret (X-Api-Key).
const SECRET_HEADER = /^(?:authorization|proxy-authorization|cookie)$|(?:key|token|secret)$/i;
// A value this short cannot be told from ordinary text: masking "42" would hide every 42 in every message.
const MIN_MASKED = 4;

/** What a server must never see printed back: each credential header's value, without its scheme word ("Bearer"),
 * and each value the entry took from the environment; longest first, so that no longer value is left half shown. */
function secretsOf(entry: HttpEntry): string[] {
  const credentials = Object.entries(entry.headers)
    .filter(([name]) => SECRET_HEADER.test(name))
    .flatMap(([, value]) => {
      // "Bearer tok_1" without "Bearer ": only a known scheme word, as a first word may be the credential itself.
      const credential = value.replace(/^(?:Bearer|Basic|Digest|DPoP|Token|Negotiate)\s+(?=\S)/i, "");
      // Each piece too, and each piece's value: a server may quote back one cookie of several, "sid=…" or just "…".
      const pieces = credential.split(/[\s;,]+/).flatMap((piece) => [piece, piece.slice(piece.indexOf("=") + 1)]);
      return [credential, ...pieces];
    });
  const secrets = new Set([...credentials, ...(entry.fromEnv ?? [])].filter((value) => value.length >= MIN_MASKED));
  return [...secrets].sort((a, b) => b.length - a.length);
}

export class RemoteTransport extends StreamableHTTPClientTransport {
  readonly pid = undefined; // no process of ours: nothing to signal, nothing that can be left behind
  readonly stderrTail: string[] = []; // nor a stderr to read: the server's errors come back as HTTP
  fault: string | undefined;
  exitReason: string | undefined;
  readonly log: (line: string) => void;
  readonly #secrets: string[];

  constructor(
    readonly name: string,
    readonly entry: HttpEntry,
    log: (line: string) => void,
  ) {
    // A stream that breaks the bound may fail only inside the SDK, and the request would wait out its timeout:
    // closing the transport ends every request at once, and `fault` says why.
    let self: RemoteTransport | undefined;
    const overflow = (why: string) => {
      if (self === undefined || self.fault !== undefined) return;
      self.fault = why;
      void self.close();
    };
    // The headers (a bearer token, for one) go with every POST, GET and DELETE to the server's URL.
    super(new URL(entry.url), { requestInit: { headers: entry.headers }, fetch: boundedFetch(overflow) });
    self = this;
    this.#secrets = secretsOf(entry);
    // The SDK reports a refused request here too, with the server's body: it may quote the token back.
    this.log = (line) => log(this.mask(line));
  }

  /** `text` with every secret of the entry replaced by ***. */
  mask(text: string): string {
    return this.#secrets.reduce((masked, secret) => masked.replaceAll(secret, "***"), text);
  }

  // The SDK's close() aborts the requests still waiting, so a server that never answers holds nothing of ours.
  override async close(): Promise<void> {
    this.exitReason ??= "the connection was closed"; // before: the SDK reports the close while it closes
    await super.close();
  }

  /** Why a request got no result: the status and the start of the body, or why nothing came back at all. The URL is
   * shown as configured (${NAME} for a value from the environment), and what the server said is masked, then cut. */
  describe(error: unknown): string {
    if (this.fault !== undefined) return this.fault;
    const url = this.entry.shown ?? this.entry.url;
    if (error instanceof SdkHttpError) {
      // Masked before it is cut: a token cut in two would no longer match, and its first half would be shown.
      const said = this.mask(error.message.replace(/^Error \w+ing to endpoint:\s*/, "")).slice(0, 200);
      return `HTTP ${error.status} from ${url}${said ? `: ${said}` : ""}`;
    }
    const { message, cause } = error as Error & { cause?: { code?: string; message?: string } };
    return this.mask(cause ? `could not reach ${url}: ${cause.code ?? cause.message}` : message);
  }
}
