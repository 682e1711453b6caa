// A remote server's transport: the SDK's Streamable HTTP client, sent the entry's headers on every request, with
// what the manager asks of any transport: a name, where to log, how it ended, and why a request failed, in one sentence.
import { SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { HttpEntry } from "./config.ts";

// A remote server is a peer like any other: what it can make the host hold is bounded, as chapter 18 bounds a line.
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
const BLANK_LINES = [Buffer.from("\n\n"), Buffer.from("\n\r\n"), Buffer.from("\r\r")]; // where one server-sent event ends

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
          const after = ends.length > 0 ? bytes.length - Math.max(...BLANK_LINES.map((blank) => bytes.lastIndexOf(blank))) : 0;
          const over = held + first > max || after > max;
          held = ends.length > 0 ? after : held + bytes.length;
          if (!over) return controller.enqueue(chunk);
          const why = `the server sent ${stream ? "an event" : "a body"} of more than ${max} bytes`;
          overflow(why);
          controller.error(new Error(why));
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

export class RemoteTransport extends StreamableHTTPClientTransport {
  readonly pid = undefined; // no process of ours: nothing to signal, nothing that can be left behind
  readonly stderrTail: string[] = []; // nor a stderr to read: the server's errors come back as HTTP
  fault: string | undefined;
  exitReason: string | undefined;

  constructor(readonly name: string, readonly entry: HttpEntry, readonly log: (line: string) => void) {
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
  }

  // The SDK's close() aborts the requests still waiting, so a server that never answers holds nothing of ours.
  override async close(): Promise<void> {
    this.exitReason ??= "the connection was closed"; // before: the SDK reports the close while it closes
    await super.close();
  }

  /** Why a request got no result: the status and the start of the body, or why nothing came back at all. */
  describe(error: unknown): string {
    if (this.fault !== undefined) return this.fault;
    if (error instanceof SdkHttpError) {
      let said = error.message.replace(/^Error \w+ing to endpoint:\s*/, "").slice(0, 200);
      // A server may quote back what it was sent: no header value (a token) is ever repeated in a reason.
      for (const value of Object.values(this.entry.headers).flatMap((header) => header.split(" ")).filter((part) => part.length >= 8)) {
        said = said.replaceAll(value, "***");
      }
      return `HTTP ${error.status} from ${this.entry.url}${said ? `: ${said}` : ""}`;
    }
    const { message, cause } = error as Error & { cause?: { code?: string; message?: string } };
    return cause ? `could not reach ${this.entry.url}: ${cause.code ?? cause.message}` : message;
  }
}
