// One session of the bridge: one stdio server process, and the HTTP answers still waiting on it, found by request id.
// The bridge reads only the envelope of each message (id, method); what the methods mean is not its business.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { ServerResponse } from "node:http";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

/** A JSON-RPC message, read only as far as the bridge needs. */
export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  result?: unknown;
  error?: unknown;
}

const NEWLINE = Buffer.from("\n");

/** A request id as a map key. */
// Ids 1 and "1" are different requests: the key keeps the type.
const key = (id: JsonRpcMessage["id"]) => JSON.stringify(id);

/** One JSON-RPC message, as the JSON text the server wrote, is the whole answer to a POST. */
const reply = (response: ServerResponse, json: string) =>
  void response.writeHead(200, { "content-type": "application/json" }).end(json);

export class BridgeSession {
  /** Set once the child is gone; the session then answers no more requests. */
  ended = false;
  #child: ChildProcessByStdio<Writable, Readable, null>;
  #pending = new Map<string, ServerResponse>();
  /** The child's pid, for the log. */
  readonly pid: number | undefined;

  //#region start
  constructor(
    readonly name: string,
    command: string[],
    readonly log: (line: string) => void,
    onEnd: () => void,
  ) {
    // The server's stderr is the bridge's: its log lines go where the bridge's go.
    this.#child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
    this.pid = this.#child.pid;
    const end = (why: string) => {
      if (this.ended) return;
      this.ended = true;
      this.log(`${name}: the server ${why}; the session ends`);
      const error = { code: -32603, message: `the server ${why} before it answered` };
      for (const [id, response] of this.#pending)
        reply(response, JSON.stringify({ jsonrpc: "2.0", id: JSON.parse(id), error }));
      this.#pending.clear();
      onEnd();
    };
    this.#child.on("error", (error) => end(`could not be started: ${error.message}`));
    // "close", not "exit": it comes after the last stdout bytes, so an answer written just before exiting still counts.
    this.#child.on("close", (code, signal) => end(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    this.#child.stdin.on("error", () => {}); // EPIPE when the child just died; its exit says so
    // One message a line; readline keeps no bound on a line's length, which this bridge does not yet need.
    createInterface({ input: this.#child.stdout }).on("line", (line) => line.trim() !== "" && this.#route(line.trim()));
  }
  //#endregion

  //#region forward
  /** Sends a client's request, as `body`, to the child; `response` gets its answer. */
  request(message: JsonRpcMessage, body: Buffer, response: ServerResponse): void {
    this.#pending.set(key(message.id), response);
    // A client that hangs up gets nothing more; the child's answer, when it comes, is dropped.
    response.on(
      "close",
      () => this.#pending.get(key(message.id)) === response && this.#pending.delete(key(message.id)),
    );
    this.send(message, body);
  }

  /**
   * Sends a notification or a response to the child, as one JSON line on its stdin: the bytes the client sent, as they
   * came, when they hold no newline; otherwise (JSON may be spread over lines) the message written again on one line.
   */
  send(message: JsonRpcMessage, body?: Buffer): void {
    if (this.ended) return;
    this.#child.stdin.write(
      body !== undefined && !body.includes(10) ? Buffer.concat([body, NEWLINE]) : `${JSON.stringify(message)}\n`,
    );
  }
  //#endregion

  //#region route
  /** An answer goes to the POST that asked, as the line it came in; a JSON answer has no room for anything else. */
  #route(line: string): void {
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line) as JsonRpcMessage;
    } catch {
      return this.log(`${this.name}: dropped a stdout line that is not JSON: ${line.slice(0, 200)}`);
    }
    const response = message.method === undefined ? this.#pending.get(key(message.id)) : undefined;
    // A notification, or a request from the server, has no POST to go to yet.
    if (!response)
      return this.log(
        `${this.name}: dropped ${message.method ?? `an answer to no request in flight (id ${key(message.id)})`}`,
      );
    this.#pending.delete(key(message.id));
    reply(response, line);
  }
  //#endregion
}
