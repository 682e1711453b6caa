// One session of the bridge: one stdio server process, and the HTTP answers still waiting on it, found by request id.
// The bridge reads only the envelope of each message (id, method, progressToken); what the methods mean is not its
// business.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import type { Answer, JsonRpcMessage } from "./answer.ts";

// What one session may hold for its server: answers waiting, and bytes written to a stdin it has not read yet.
export const MAX_IN_FLIGHT = 64;
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;
const GRACE_MS = 2000;
const NEWLINE = Buffer.from("\n");

type Pending = { answer: Answer; progressToken: unknown };

/** A request id as a map key. */
// Ids 1 and "1" are different requests: the key keeps the type.
const key = (id: JsonRpcMessage["id"]) => JSON.stringify(id);

export class BridgeSession {
  readonly id = crypto.randomUUID();
  /** Set once the child is gone; the session then answers no more requests. */
  ended = false;
  #child: ChildProcessWithoutNullStreams;
  #pending = new Map<string, Pending>();
  #exited: Promise<void>;
  /** The child's pid, which is also its process group id. */
  readonly pid: number | undefined;

  //#region start
  constructor(
    readonly name: string,
    command: string[],
    readonly log: (line: string) => void,
    onEnd: () => void,
  ) {
    // detached: the child leads its own process group, so stop() reaches whatever it started too.
    this.#child = spawn(command[0]!, command.slice(1), { stdio: "pipe", detached: true });
    this.pid = this.#child.pid;
    this.#exited = new Promise((resolve) => {
      const end = (why: string) => {
        if (this.ended) return;
        this.ended = true;
        this.log(`${name}: the server ${why}; the session ends`);
        for (const { answer } of this.#pending.values()) answer.fail(-32603, `the server ${why} before it answered`);
        this.#pending.clear();
        onEnd();
        resolve();
      };
      this.#child.on("error", (error) => end(`could not be started: ${error.message}`));
      // "close", not "exit": it comes after the last stdout bytes, so an answer written just before exiting still
      // counts.
      this.#child.on("close", (code, signal) => end(signal ? `was killed by ${signal}` : `exited with code ${code}`));
    });
    this.#child.stdin.on("error", () => {}); // EPIPE when the child just died; its exit says so
    // One message a line; readline keeps no bound on a line's length, which this bridge does not yet need.
    createInterface({ input: this.#child.stdout }).on("line", (line) => line.trim() !== "" && this.#route(line.trim()));
    this.#child.stderr.setEncoding("utf8").on("data", (text: string) =>
      text
        .trimEnd()
        .split("\n")
        .forEach((line) => this.log(`${name} stderr: ${line}`)),
    );
  }
  //#endregion

  //#region forward
  /** Why the session can take no more now, or undefined: a client cannot make the bridge hold without bound. */
  busy(): string | undefined {
    if (this.#pending.size >= MAX_IN_FLIGHT) return `${MAX_IN_FLIGHT} requests are already waiting in this session`;
    if (this.#child.stdin.writableLength > MAX_BACKLOG_BYTES) return "the server is not reading what it was sent";
    return undefined;
  }

  /**
   * Sends a client's request, as `body`, to the child; `answer` gets its response, or the notifications that belong to
   * it.
   */
  request(message: JsonRpcMessage, body: Buffer, answer: Answer): void {
    const id = key(message.id);
    if (this.#pending.has(id)) return answer.fail(-32600, `request id ${id} is already in flight`);
    this.#pending.set(id, { answer, progressToken: message.params?._meta?.progressToken });
    // A client that hangs up gets nothing more; the child's answer, when it comes, is dropped.
    answer.onClose(() => this.#pending.get(id)?.answer === answer && this.#pending.delete(id));
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
  /**
   * An answer goes to the POST that asked, as the line it came in; a notification to the request it belongs to, if any.
   */
  #route(line: string): void {
    let message: JsonRpcMessage;
    try {
      message = JSON.parse(line) as JsonRpcMessage;
    } catch {
      return this.log(`${this.name}: dropped a stdout line that is not JSON: ${line.slice(0, 200)}`);
    }
    if (message.method === undefined) {
      const pending = this.#pending.get(key(message.id));
      if (!pending) return this.log(`${this.name}: dropped an answer to no request in flight (id ${key(message.id)})`);
      this.#pending.delete(key(message.id));
      return pending.answer.finish(line);
    }
    const owner = this.#owner(message);
    // The client's answer to a request from the server, if this is one, comes back as a POST of its own.
    if (owner) return owner.answer.notify(line);
    if (message.id !== undefined) {
      // A request from the server with no single request in flight has no stream to take: say no at once, not never.
      this.log(`${this.name}: refused the server's request ${message.method}`);
      return this.send({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32601, message: "no single request in flight to carry this one to the client" },
      });
    }
    this.log(`${this.name}: dropped ${message.method}, which belongs to no request in flight`);
  }

  #owner(message: JsonRpcMessage): Pending | undefined {
    const pending = [...this.#pending.values()];
    if (message.method === "notifications/progress") {
      const token = message.params?.progressToken;
      return pending.find((request) => request.progressToken !== undefined && request.progressToken === token);
    }
    // A log line, or a request from the server (sampling, elicitation, roots), names no request of the client's:
    // it is only known to belong to one when a single request is in flight.
    return (message.method === "notifications/message" || message.id !== undefined) && pending.length === 1
      ? pending[0]
      : undefined;
  }
  //#endregion

  //#region stop
  /** Ends the child's stdin and gives it 2 s to exit, then SIGTERM and after 2 s SIGKILL to its whole process group. */
  async stop(): Promise<void> {
    this.#child.stdin.end();
    await Promise.race([this.#exited, sleep(GRACE_MS)]);
    // Signal the group even when the leader has exited: something it started may still hold on.
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (!this.#signalGroup(signal)) break;
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && this.#signalGroup(0)) await sleep(20);
    }
    await this.#exited;
  }

  #signalGroup(signal: NodeJS.Signals | 0): boolean {
    try {
      process.kill(-this.#child.pid!, signal);
      return true;
    } catch {
      return false; // the group is empty (signal 0 only asks)
    }
  }
  //#endregion
}
