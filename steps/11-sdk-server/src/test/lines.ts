// Test helper: this step's server as a child process, driven one raw line at a time, with no client in between.
// stdin stays open until close(): the SDK drops the answers to requests still running when its stdin ends.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { serverPath } from "./sdk.ts";

export class Lines {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = "";
  #lines: AsyncIterator<string>;

  constructor(folder: string) {
    this.child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, folder]);
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString("utf8")));
    // A server that stops reading early makes our writes fail with EPIPE; the test checks what it did instead.
    this.child.stdin.on("error", () => {});
    this.#lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  send(line: string): void {
    this.child.stdin.write(line + "\n");
  }

  /** The next line the server wrote, parsed; fails when none comes within `timeoutMs`. */
  async next(timeoutMs = 15_000): Promise<unknown> {
    const next = await this.nextOrEnd(timeoutMs);
    if (next === undefined) throw new Error(`the server closed its output; stderr:\n${this.stderr}`);
    return next;
  }

  /** The next line the server wrote, parsed, or undefined when it closed its output instead. */
  async nextOrEnd(timeoutMs = 15_000): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`no line within ${timeoutMs} ms`)), timeoutMs)),
    );
    const next = await Promise.race([this.#lines.next(), timeout]).finally(() => clearTimeout(timer));
    return next.done ? undefined : JSON.parse(next.value);
  }

  /** Ends the server's stdin and returns its exit code; kills it if it lingers. */
  async close(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const closed = once(this.child, "close");
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 15_000);
    await closed;
    clearTimeout(timer);
    return this.child.exitCode;
  }
}
