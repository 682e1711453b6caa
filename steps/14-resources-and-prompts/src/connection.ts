// The client's JSON-RPC connection: numbers each request, pairs each response by `id`, times out the silent.
// It also answers the server's own requests, because a server may ask before it answers.
import { isObject, JsonRpcError, MethodNotFound, type JsonRpcId } from "./jsonrpc.ts";

type Message = { jsonrpc: "2.0"; id?: JsonRpcId | null; method?: string; params?: unknown; result?: unknown; error?: unknown };
export type Notification = { method: string; params?: unknown };

export interface ConnectionOptions {
  timeoutMs: number;
  onNotification?: (notification: Notification) => void;
  warn: (text: string) => void;
}

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout };

export class Connection {
  #nextId = 1;
  //#region pending
  // An object, not a Map: a Map that gains new keys and loses old ones rebuilds its table every few dozen requests
  // and links each old table to the next, so after one full GC every request outlives the young generation.
  #pending: Record<number, Pending> = Object.create(null);
  //#endregion
  #failure: Error | undefined;

  constructor(private readonly send: (line: string) => void, private readonly options: ConnectionOptions) {}

  //#region request
  request(method: string, params?: object, timeoutMs = this.options.timeoutMs): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        delete this.#pending[id];
        // Tell the server to stop working on it; its answer, if it still comes, is dropped.
        this.notify("notifications/cancelled", { requestId: id, reason: "timeout" });
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending[id] = { resolve, reject, timer };
      this.#write({ jsonrpc: "2.0", id, method, ...(params && { params }) });
    });
  }
  //#endregion

  notify(method: string, params?: object): void {
    this.#write({ jsonrpc: "2.0", method, ...(params && { params }) });
  }

  /** Fails every pending request at once, and every later one, with `error`. */
  failAll(error: Error): void {
    this.#failure ??= error;
    const pending = Object.values(this.#pending);
    this.#pending = Object.create(null);
    for (const { timer, reject } of pending) {
      clearTimeout(timer);
      reject(error);
    }
  }

  //#region receive
  /** Takes one line from the server's stdout. */
  receive(line: string): void {
    if (line.trim() === "") return; // A blank line carries nothing; it is not worth a warning.
    const message = parse(line);
    if (message === undefined) return this.options.warn(`skipped a stdout line that is not JSON-RPC: ${line.slice(0, 200)}`);
    if (message.method !== undefined && message.id !== undefined && message.id !== null) return this.#answer(message);
    if (message.method !== undefined) return this.options.onNotification?.({ method: message.method, params: message.params });
    this.#settle(message);
  }

  #settle(response: Message): void {
    // Our ids are numbers, so a string id answers nothing of ours.
    const pending = typeof response.id === "number" ? this.#pending[response.id] : undefined;
    if (!pending) return this.options.warn(`ignored a response to no pending request: id ${JSON.stringify(response.id)}`);
    delete this.#pending[response.id as number];
    clearTimeout(pending.timer);
    // The same JsonRpcError the server throws: on this side it carries the server's code, message and data.
    const error = response.error;
    if (isObject(error)) pending.reject(new JsonRpcError(Number(error.code), String(error.message), error.data));
    else pending.resolve(response.result);
  }

  // The only server request this client understands is ping; MCP says to answer it with an empty result.
  #answer(request: Message): void {
    if (request.method === "ping") return this.#write({ jsonrpc: "2.0", id: request.id, result: {} });
    const error = { code: MethodNotFound, message: `Method not found: ${request.method}` };
    this.#write({ jsonrpc: "2.0", id: request.id, error });
  }
  //#endregion

  #write(message: Message): void {
    this.send(JSON.stringify(message));
  }
}

function parse(line: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && value.jsonrpc === "2.0" ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}
