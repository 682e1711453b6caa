// A JSON-RPC client over a pair of streams: many requests in flight, each response matched by its id.
// Pending requests sit in a Map keyed by the id as sent, so 0 and "0" stay two different requests.
import type { Readable, Writable } from "node:stream";
import { LineDecoder } from "./framing.ts";
import { isObject, JsonRpcError, type JsonRpcId } from "./jsonrpc.ts";

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}
export type Trace = (direction: "->" | "<-", line: string) => void;

export class JsonRpcClient {
  #pending = new Map<JsonRpcId, Pending>();
  #nextId = 0;
  #toServer: Writable;
  #trace: Trace | undefined;
  #closed: Error | undefined;

  /** `toServer` is the server's stdin, `fromServer` its stdout; `trace` sees every line both ways. */
  constructor(toServer: Writable, fromServer: Readable, trace?: Trace) {
    this.#toServer = toServer;
    this.#trace = trace;
    const decoder = new LineDecoder();
    fromServer.on("data", (chunk: Buffer) => decoder.push(chunk).forEach((line) => this.#receive(line)));
    fromServer.on("close", () => this.#failAll(new Error("the server closed its output")));
  }

  //#region request
  /** Sends a request and resolves with its result; the id defaults to a counter starting at 0. */
  request(method: string, params?: unknown, id: JsonRpcId = this.#nextId++): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed);
    if (this.#pending.has(id)) return Promise.reject(new Error(`id ${JSON.stringify(id)} is already in flight`));
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  /** Sends a notification: no id, so no response will ever come. */
  notify(method: string, params?: unknown): void {
    this.#send({ jsonrpc: "2.0", method, params });
  }
  //#endregion

  #send(message: object): void {
    const line = JSON.stringify(message);
    this.#trace?.("->", line);
    this.#toServer.write(line + "\n");
  }

  //#region receive
  #receive(line: string): void {
    this.#trace?.("<-", line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      console.error(`[client] ignored a line that is not JSON: ${line}`);
      return;
    }
    for (const response of Array.isArray(message) ? message : [message]) this.#settle(response);
  }

  #settle(response: unknown): void {
    const id = isObject(response) ? response.id : undefined;
    const pending = typeof id === "string" || typeof id === "number" ? this.#pending.get(id) : undefined;
    // An id of null (a parse error) or an unknown id matches nothing we sent: report it, keep going.
    if (!isObject(response) || pending === undefined) {
      console.error(`[client] response matches no pending request: ${JSON.stringify(response)}`);
      return;
    }
    this.#pending.delete(id as JsonRpcId);
    const error = response.error;
    if (isObject(error)) pending.reject(new JsonRpcError(Number(error.code), String(error.message), error.data));
    else pending.resolve(response.result);
  }
  //#endregion

  #failAll(error: Error): void {
    this.#closed = error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
