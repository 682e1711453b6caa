// Test helper: a server run as a child process and driven one raw line at a time.
// Lines are read with the same LineDecoder the server uses: what a test gets is exactly what the server wrote.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { LineDecoder } from "../framing.ts";

export class Wire {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything the server logged; read it, or a full stderr pipe would stall the server. */
  stderr = "";
  #lines: string[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  /** Starts a TypeScript server under this Node, naming tsx's loader by absolute path. */
  constructor(file: string, args: string[] = []) {
    this.child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), file, ...args]);
    const decoder = new LineDecoder();
    this.child.stdout.on("data", (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) this.#lines.push(String(line));
      this.#wake?.();
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    // "close", not "exit": it comes after the last stdout bytes have been read.
    this.child.on("close", () => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  send(line: string): void {
    this.child.stdin.write(line + "\n");
  }

  /** The next line the server wrote; fails if none comes within `timeoutMs` or the server is gone. */
  async nextLine(timeoutMs = 15_000): Promise<string> {
    while (this.#lines.length === 0) {
      if (this.#closed) throw new Error(`server closed its output; stderr:\n${this.stderr}`);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line within ${timeoutMs} ms`)), timeoutMs);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.#lines.shift()!;
  }

  /** Performs the MCP handshake, so that the server's methods answer; returns initialize's answer line. */
  async initialize(protocolVersion = "2025-11-25"): Promise<string> {
    const params = { protocolVersion, capabilities: {}, clientInfo: { name: "wire-test", version: "1.0.0" } };
    this.send(JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params }));
    const answer = await this.nextLine();
    this.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return answer;
  }

  /** Ends the server's input and waits for it to exit; kills it if it lingers. Returns its exit code. */
  async close(): Promise<number | null> {
    if (!this.#closed) {
      const closed = once(this.child, "close");
      this.child.stdin.end();
      // Generous: on a loaded machine a TypeScript server can take seconds just to start and read its stdin.
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 15_000);
      await closed;
      clearTimeout(timer);
    }
    return this.child.exitCode;
  }
}
