// A server run as a child process and driven one raw line at a time, by the demo and the tests.
// Lines are read with the same LineDecoder the server uses: what you get is exactly what it wrote.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { LineDecoder } from "./framing.ts";

/** Starts a TypeScript server under this Node, naming tsx's loader by absolute path. */
export function spawnServer(file: string, args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", import.meta.resolve("tsx"), file, ...args]);
}

export class Wire {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything the server logged; read it, or a full stderr pipe would stall the server. */
  stderr = "";
  #lines: string[] = [];
  #wake: (() => void) | undefined;
  #closed = false;

  constructor(file: string, args: string[]) {
    this.child = spawnServer(file, args);
    const decoder = new LineDecoder();
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.#lines.push(...decoder.push(chunk));
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

  /** Ends the server's input and waits for it to exit; kills it if it lingers. Returns its exit code. */
  async close(): Promise<number | null> {
    if (!this.#closed) {
      const closed = once(this.child, "close");
      this.child.stdin.end();
      const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
      await closed;
      clearTimeout(timer);
    }
    return this.child.exitCode;
  }
}
