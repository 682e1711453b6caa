// A remote server's transport: the SDK's Streamable HTTP client, sent the entry's headers on every request, with
// what the manager asks of any transport: a name, where to log, how it ended, and why a request failed, in one sentence.
import { SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { HttpEntry } from "./config.ts";

export class RemoteTransport extends StreamableHTTPClientTransport {
  readonly pid = undefined; // no process of ours: nothing to signal, nothing that can be left behind
  readonly stderrTail: string[] = []; // nor a stderr to read: the server's errors come back as HTTP
  fault: string | undefined;
  exitReason: string | undefined;

  constructor(readonly name: string, readonly entry: HttpEntry, readonly log: (line: string) => void) {
    // The headers (a bearer token, for one) go with every POST, GET and DELETE to the server's URL.
    super(new URL(entry.url), { requestInit: { headers: entry.headers } });
  }

  // The SDK's close() aborts the requests still waiting, so a server that never answers holds nothing of ours.
  override async close(): Promise<void> {
    await super.close();
    this.exitReason ??= "the connection was closed";
  }

  /** Why a request got no result: the status and the start of the body, or why nothing came back at all. */
  describe(error: unknown): string {
    if (error instanceof SdkHttpError) {
      const said = error.message.replace(/^Error \w+ing to endpoint:\s*/, "").slice(0, 200);
      return `HTTP ${error.status} from ${this.entry.url}${said ? `: ${said}` : ""}`;
    }
    const { message, cause } = error as Error & { cause?: { code?: string; message?: string } };
    return cause ? `could not reach ${this.entry.url}: ${cause.code ?? cause.message}` : message;
  }
}
