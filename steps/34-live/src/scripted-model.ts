// The scripted model: a stand-in for the Anthropic Messages API on 127.0.0.1 that replays a scenario, one turn per
// request, as a real streaming answer. It never improvises: a request that lacks what its turn expects, or one past the
// last turn, gets a 400 naming the difference, and the failure is kept for the caller to report.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isObject } from "./config.ts";
import { mismatch, type Block, type Turn } from "./scenario.ts";

//#region stream
/** The server-sent events of one streamed answer, in the order the real API sends them. */
function* events(reply: Turn["reply"], model: string, turn: number, ids: string[]): Generator<Block> {
  yield {
    type: "message_start",
    message: {
      id: `msg_scripted_${turn}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0 },
    },
  };
  yield { type: "ping" };
  let tools = 0;
  for (const [index, block] of reply.entries()) {
    if (block.type === "text") {
      yield { type: "content_block_start", index, content_block: { type: "text", text: "" } };
      // A few words at a time, as a model streams: the host must put the pieces together.
      for (const piece of block.text.match(/(?:\S+\s*){1,3}|\s+/g) ?? [])
        yield { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } };
    } else {
      yield {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: ids[tools++], name: block.name, input: {} },
      };
      const json = JSON.stringify(block.input);
      for (const piece of [json.slice(0, json.length >> 1), json.slice(json.length >> 1)])
        yield { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } };
    }
    yield { type: "content_block_stop", index };
  }
  yield {
    type: "message_delta",
    delta: { stop_reason: tools > 0 ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: 0 },
  };
  yield { type: "message_stop" };
}
//#endregion

//#region server
const MAX_BODY_BYTES = 8 * 1024 * 1024;

class ApiError extends Error {
  /** A refusal answered with `status` and an error of type `kind`, as the Messages API words one. */
  constructor(
    readonly status: number,
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

/** The request's body as a JSON object, at most MAX_BODY_BYTES; anything else is refused. */
async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, "request_too_large", `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    const body: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (isObject(body)) return body;
  } catch {}
  throw new ApiError(400, "invalid_request_error", "the body is not a JSON object");
}

/** Writes an error the way the Messages API does: a status and { type: "error", error: { type, message } }. */
function refuse(response: ServerResponse, refusal: ApiError): void {
  if (response.headersSent) return void response.destroy();
  // Connection: close, so a client never sends more body into a connection that will not read it.
  response.writeHead(refusal.status, { "content-type": "application/json", connection: "close" });
  response.end(JSON.stringify({ type: "error", error: { type: refusal.kind, message: refusal.message } }));
}

//#region play
/** Where the replay stands: the turn the next request must match, the tool_use ids of the last answer, the refusals. */
class Script {
  next = 0;
  ids: string[] = [];
  failures: string[] = [];
  constructor(readonly turns: Turn[]) {}

  /** The turn that `body` plays, after checking it is the request that turn expects. */
  play(body: Record<string, unknown>): Turn {
    const turn = this.turns[this.next];
    if (turn === undefined)
      throw new ApiError(
        400,
        "invalid_request_error",
        `request ${this.next + 1}, but the script has only ${this.turns.length} turns`,
      );
    const why = mismatch(turn, body, this.ids);
    if (why !== undefined) throw new ApiError(400, "invalid_request_error", `turn ${this.next + 1}: ${why}`);
    this.next += 1;
    const toolUses = turn.reply.filter((block) => block.type === "tool_use").length;
    this.ids = Array.from({ length: toolUses }, (_, i) => `toolu_scripted_${this.next}_${i + 1}`);
    return turn;
  }
}
//#endregion

//#region local
/** Whether a Host header names this machine (localhost, 127.0.0.1 or [::1]), with an optional port. */
// Only this machine may talk to it: a web page's request (DNS rebinding) carries another Host, or an Origin. Host is
// parsed by hand, not by URL, which drops userinfo ("evil.com@localhost") and throws on forms it cannot parse.
function isLocalHost(host: string): boolean {
  const match = /^(?:localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i.exec(host);
  return match !== null && (match[1] === undefined || (Number(match[1]) >= 1 && Number(match[1]) <= 65535));
}

/** Whether an Origin header is a page served from this machine. */
const isLocalOrigin = (origin: string) =>
  /^https?:\/\//i.test(origin) && isLocalHost(origin.replace(/^https?:\/\//i, ""));

/** Refuses a request whose Host or Origin is not this machine. */
function checkLocal(request: IncomingMessage): void {
  const hosts = request.headersDistinct.host ?? [];
  if (hosts.length !== 1) throw new ApiError(400, "invalid_request_error", "a request needs exactly one Host header");
  if (!isLocalHost(hosts[0]!))
    throw new ApiError(403, "permission_error", "only this machine may call the scripted model: Host is not local");
  const origin = request.headers.origin;
  if (origin !== undefined && !isLocalOrigin(origin))
    throw new ApiError(403, "permission_error", "a request from a web page is refused: Origin is not local");
}
//#endregion

/** Answers one request with the scenario's next reply, streamed as the Messages API streams it. */
async function answer(script: Script, request: IncomingMessage, response: ServerResponse): Promise<void> {
  checkLocal(request);
  if (request.method !== "POST" || request.url !== "/v1/messages")
    throw new ApiError(404, "not_found_error", `no ${request.method} ${request.url} here: only POST /v1/messages`);
  const key = request.headers["x-api-key"] ?? /^Bearer \S/.test(request.headers.authorization ?? "");
  if (!key) throw new ApiError(401, "authentication_error", "no API key: send x-api-key or authorization: Bearer");
  const body = await readBody(request);
  const turn = script.play(body);
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const event of events(turn.reply, String(body.model), script.next, script.ids))
    response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  response.end();
}

export interface ScriptedModel {
  url: string; // the base URL to give the SDK client
  failures: string[]; // every refused request, in order
  played: () => string; // "N of M turns played"
  playedAll: () => boolean;
  close: () => Promise<void>;
}

/** Serves `turns` on 127.0.0.1 (port 0: any free one) until close(). */
export async function startScriptedModel(turns: Turn[], port = 0): Promise<ScriptedModel> {
  const script = new Script(turns);
  const server = createServer((request, response) => {
    // Every throw becomes an answer, so no request can stop the demo: an ApiError as itself, anything else as a 500
    // whose cause goes to stderr in one line, never to the client as a stack.
    answer(script, request, response).catch((error: unknown) => {
      const { status, kind, message } =
        error instanceof ApiError ? error : new ApiError(500, "api_error", "internal error");
      const cause = error instanceof ApiError ? message : String(error).split("\n")[0];
      if (!(error instanceof ApiError)) console.error(`scripted model: ${cause}`);
      script.failures.push(`scripted model: ${cause}`);
      refuse(response, new ApiError(status, kind, `scripted model: ${message}`));
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failures: script.failures,
    played: () => `${script.next} of ${turns.length} turns played`,
    playedAll: () => script.next === turns.length,
    close,
  };
}
//#endregion
