// The client's side of JSON-RPC over a pair of streams: many requests in flight, each answer paired by its id.
// A request that gets no answer in time fails on its own; a peer that goes away fails every request at once.
// The server may send requests and notifications of its own: ping is answered, notifications are handed on.
import type { Readable, Writable } from "node:stream";
import { LineDecoder, LineTooLong, type Line } from "./framing.ts";
import { isObject, JsonRpcError, MethodNotFound, type JsonRpcId } from "./jsonrpc.ts";

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };
export type Trace = (direction: "->" | "<-", line: string) => void;
export type Notification = { method: string; params?: unknown };

export interface ConnectionOptions {
  /** How long a request may wait for its answer, in milliseconds; each request can override it. */
  timeoutMs?: number;
  /** Where problems that fail no request are reported, such as an answer to nothing. Default: stderr. */
  warn?: (text: string) => void;
  /** Sees every line, both ways. */
  trace?: Trace;
  /** Receives every notification the server sends. */
  onNotification?: (notification: Notification) => void;
  /** Called once, when the connection fails for good: its output closed or it broke the framing. */
  onFailure?: (error: Error) => void;
  /** Decides what the end of the server's output means; by default every request fails at once. */
  onClose?: () => void;
}

export class Connection {
  #pending = new Map<JsonRpcId, Pending>();
  #nextId = 1;
  #failure: Error | undefined;
  #timeoutMs: number;
  #warn: (text: string) => void;
  #trace: Trace | undefined;
  #onNotification: ConnectionOptions["onNotification"];
  #onFailure: ConnectionOptions["onFailure"];

  /** `toServer` is the server's stdin, `fromServer` its stdout. */
  constructor(
    private readonly toServer: Writable,
    fromServer: Readable,
    options: ConnectionOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#warn = options.warn ?? ((text) => process.stderr.write(`[client] ${text}\n`));
    this.#trace = options.trace;
    this.#onNotification = options.onNotification;
    this.#onFailure = options.onFailure;
    const decoder = new LineDecoder();
    fromServer.on("data", (chunk: Buffer) => decoder.push(chunk).forEach((line) => this.#receive(line)));
    fromServer.on("close", options.onClose ?? (() => this.failAll(new Error("the server closed its output"))));
  }

  //#region request
  /** Sends a request and resolves with its result, or rejects with the server's JsonRpcError or a timeout. */
  request(method: string, params?: object, timeoutMs = this.#timeoutMs): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      // The entry goes when the timer fires: an answer that comes later finds nothing and is reported.
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#write({ jsonrpc: "2.0", id, method, ...(params && { params }) });
    });
  }

  /** Sends a notification: no id, so no answer will ever come. */
  notify(method: string, params?: object): void {
    this.#write({ jsonrpc: "2.0", method, ...(params && { params }) });
  }
  //#endregion

  /** Fails every pending request at once, and every later one, with `error`. */
  failAll(error: Error): void {
    if (this.#failure === undefined) this.#onFailure?.(error);
    this.#failure ??= error;
    for (const { timer, reject } of this.#pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.#pending.clear();
  }

  /** Sends one message to the server as a line. */
  #write(message: object): void {
    const line = JSON.stringify(message);
    this.#trace?.("->", line);
    this.toServer.write(line + "\n");
  }

  //#region receive
  /** Handles one line from the server: an answer, a request or notification of its own, or a warning. */
  #receive(line: Line): void {
    if (line instanceof LineTooLong) return this.failAll(new Error(`the server sent a line over ${line.limit} bytes`));
    if (line.trim() === "") return; // A blank line carries nothing; it is not worth a warning.
    this.#trace?.("<-", line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.#warn(`skipped a line that is not JSON: ${line.slice(0, 200)}`);
    }
    if (isObject(message) && typeof message.method === "string") return this.#fromServer(message);
    const id = isObject(message) ? message.id : undefined;
    const pending = typeof id === "string" || typeof id === "number" ? this.#pending.get(id) : undefined;
    // An id of null (a parse error) or an unknown id matches nothing we sent: report it, keep going.
    if (!isObject(message) || pending === undefined) return this.#warn(`no pending request for ${line.slice(0, 200)}`);
    this.#pending.delete(id as JsonRpcId);
    clearTimeout(pending.timer);
    const outcome = outcomeOf(message, line);
    if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome.result);
  }

  /** A message the server sent of its own: a notification goes to onNotification, a request gets an answer. */
  // A request from the server gets an answer whatever it asks: ping is all this client knows.
  #fromServer({ id, method, params }: Record<string, unknown>): void {
    if (id === undefined) return this.#onNotification?.({ method: method as string, params });
    const answer =
      method === "ping" ? { result: {} } : { error: { code: MethodNotFound, message: `Method not found: ${method}` } };
    this.#write({ jsonrpc: "2.0", id, ...answer });
  }
  //#endregion
}

//#region outcome
/** What an answer means for its request: its result, the server's JsonRpcError, or an Error for a broken answer. */
function outcomeOf(message: Record<string, unknown>, line: string): { result: unknown } | Error {
  const { error } = message;
  if (Object.hasOwn(message, "error")) {
    if (isObject(error) && Number.isInteger(error.code) && typeof error.message === "string") {
      return new JsonRpcError(error.code as number, error.message);
    }
    return new Error(`the server answered with a malformed error: ${line.slice(0, 200)}`);
  }
  if (Object.hasOwn(message, "result")) return { result: message.result };
  return new Error(`the server answered with neither a result nor an error: ${line.slice(0, 200)}`);
}
//#endregion
