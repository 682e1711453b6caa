// The stdio hop the bridge adds: `tools/call` of `add` to the hand-written server over its pipes, with nothing in
// between. A lean client, as the bridge itself is one: lines framed on "\n", answers found by id.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import type { AddClient } from "./http-client.ts";
import { splitLines } from "./lines.ts";

type Message = { id: number; result?: { content: { text: string }[] }; error?: { message: string } };

export class PipeClient implements AddClient {
  #child: ChildProcessWithoutNullStreams | undefined;
  #waiting = new Map<number, (message: Message) => void>();
  #nextId = 1;

  constructor(private readonly command: string[]) {}

  get pid(): number {
    return this.#child!.pid!;
  }

  /** Starts the server and completes the 2025-11-25 handshake. */
  async open(): Promise<void> {
    this.#child = spawn(this.command[0]!, this.command.slice(1));
    this.#child.stderr.resume();
    // A server that dies fails every call still waiting, instead of leaving the bench hanging.
    this.#child.on("close", (code, signal) => {
      for (const [id, answer] of this.#waiting)
        answer({ id, error: { message: `the server exited (${signal ?? code})` } });
      this.#waiting.clear();
    });
    this.#child.stdout.on(
      "data",
      splitLines((line) => {
        const message = JSON.parse(line.toString("utf8")) as Message;
        this.#waiting.get(message.id)?.(message);
        this.#waiting.delete(message.id);
      }),
    );
    const clientInfo = { name: "learn-mcp-bench", version: "0.1.0" };
    await this.#request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo });
    this.#child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  }

  async add(a: number, b: number): Promise<string> {
    const message = await this.#request("tools/call", { name: "add", arguments: { a, b } });
    const text = message.result?.content[0]?.text;
    if (typeof text !== "string") throw new Error(`add: ${JSON.stringify(message).slice(0, 200)}`);
    return text;
  }

  #request(method: string, params: object): Promise<Message> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, (message) =>
        message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message),
      );
      this.#child!.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  }

  /** Ends the server's stdin, which ends the server. */
  async close(): Promise<void> {
    if (this.#child === undefined || this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const closed = once(this.#child, "close");
    this.#child.stdin.end();
    await closed;
  }
}
