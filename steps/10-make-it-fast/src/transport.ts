// The client's side of the stdio transport: runs the server as a child and hands its pipes to the connection.
// The child leads its own process group, so close() also reaches what a wrapper such as npx started.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";

// Only the end of the server's stderr is kept: enough to explain a crash, bounded in memory.
const STDERR_TAIL_CHARS = 2000;

/** Resolves with `promise`, or with undefined after `ms`; the timer never outlives the wait. */
async function upTo<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export class StdioTransport {
  /** Resolves once, when the server is gone, with why: "exited with code 3", "was killed by SIGKILL". */
  readonly exited: Promise<string>;
  #child: ChildProcessWithoutNullStreams;
  #stderrTail = "";
  #closing: Promise<void> | undefined;

  //#region spawn
  constructor(command: string, args: string[]) {
    // detached: the child calls setsid() and leads a new process group that close() can signal whole.
    this.#child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], detached: true });
    // Always drain stderr: a full, unread pipe blocks the server's next write to it.
    this.#child.stderr.setEncoding("utf8");
    this.#child.stderr.on("data", (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    // Writing to a server that just died raises EPIPE here; the exit below reports it instead.
    this.#child.stdin.on("error", () => {});
    this.exited = this.#waitForExit();
    // A host that ends without close() (process.exit, an uncaught error, a reader gone from `| head`) must not leave
    // the group running. An "exit" handler can only do what is synchronous: SIGKILL, with no grace.
    const killOnExit = () => this.#signalGroup("SIGKILL");
    process.once("exit", killOnExit);
    void this.exited.then(() => process.off("exit", killOnExit));
  }
  //#endregion

  /** The server's stdin. */
  get toServer(): Writable {
    return this.#child.stdin;
  }

  /** The server's stdout. */
  get fromServer(): Readable {
    return this.#child.stdout;
  }

  /** The server's process id, which is also its process group id. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The last lines the server wrote to stderr, trimmed. */
  get stderrTail(): string {
    return this.#stderrTail.trim();
  }

  /** Why the server's output ended: its exit, if that follows within a moment, or that it runs on without output. */
  async whyOutputClosed(): Promise<string> {
    return (await upTo(this.exited, 500)) ?? "closed its output but is still running";
  }

  /** Resolves with how the server ended once it exits or cannot be started. */
  async #waitForExit(): Promise<string> {
    const reason = await new Promise<string>((resolve) => {
      this.#child.on("error", (error) => resolve(`could not be started: ${error.message}`));
      this.#child.on("exit", (code, signal) =>
        resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`),
      );
    });
    // Output written just before exit may still be in the pipes: give it a moment to arrive.
    await upTo(new Promise((resolve) => this.#child.on("close", resolve)), 100);
    return reason;
  }

  //#region close
  /**
   * Ends stdin, waits `graceMs` for the server to leave, then SIGTERM and SIGKILL its whole group. Safe to call twice.
   */
  close(graceMs = 1000): Promise<void> {
    this.#closing ??= this.#close(graceMs);
    return this.#closing;
  }

  async #close(graceMs: number): Promise<void> {
    this.#child.stdin.end();
    await upTo(this.exited, graceMs);
    // Signal the group even when the leader has left: a grandchild may still hold on.
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (!this.#signalGroup(signal)) break;
      const deadline = Date.now() + graceMs;
      while (Date.now() < deadline && this.#signalGroup(0)) await sleep(20);
    }
    await this.exited;
  }

  /** Sends `signal` to every process in the server's group; false when the group is empty. */
  #signalGroup(signal: NodeJS.Signals | 0): boolean {
    if (this.#child.pid === undefined) return false;
    try {
      process.kill(-this.#child.pid, signal);
      return true;
    } catch {
      return false; // ESRCH: nobody is left in the group. Signal 0 only asks that question.
    }
  }
  //#endregion
}
