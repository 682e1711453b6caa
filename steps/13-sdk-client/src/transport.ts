// The client side of the stdio transport: runs the server as a child and trades lines with it.
// The child leads its own process group, so close() also reaches what a wrapper such as npx started.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { LineDecoder, writeLine } from "./framing.ts";

// Only the end of the server's stderr is kept: enough to explain a crash, bounded in memory.
const STDERR_TAIL_CHARS = 2000;

export class StdioTransport {
  /** Resolves once, when the server is gone, with why: "exited with code 3", "was killed by SIGKILL". */
  readonly exited: Promise<string>;
  #child: ChildProcessWithoutNullStreams;
  #stderrTail = "";
  #gone = false;

  //#region spawn
  constructor(command: string, args: string[], onLine: (line: string) => void) {
    // detached: the child calls setsid() and leads a new process group that close() can signal whole.
    this.#child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], detached: true });
    const decoder = new LineDecoder();
    this.#child.stdout.on("data", (chunk: Buffer) => decoder.push(chunk).forEach(onLine));
    // Always drain stderr: a full, unread pipe blocks the server's next write to it.
    this.#child.stderr.setEncoding("utf8");
    this.#child.stderr.on("data", (text: string) => {
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    // Writing to a server that just died raises EPIPE here; the exit below reports it instead.
    this.#child.stdin.on("error", () => {});
    this.exited = this.#waitForExit();
  }
  //#endregion

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** The last lines the server wrote to stderr, trimmed. */
  get stderrTail(): string {
    return this.#stderrTail.trim();
  }

  send(line: string): void {
    if (!this.#gone) writeLine(this.#child.stdin, line);
  }

  async #waitForExit(): Promise<string> {
    const reason = await new Promise<string>((resolve) => {
      this.#child.on("error", (error) => resolve(`could not be started: ${error.message}`));
      this.#child.on("exit", (code, signal) =>
        resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`),
      );
    });
    this.#gone = true;
    // Output written just before exit may still be in the pipes: give it a moment to arrive.
    const drained = new Promise((resolve) => this.#child.on("close", resolve));
    await Promise.race([drained, sleep(100)]);
    return reason;
  }

  //#region close
  /** Ends stdin, waits `graceMs` for the server to leave, then SIGTERM and SIGKILL its whole group. */
  async close(graceMs = 1000): Promise<void> {
    this.#child.stdin.end();
    await Promise.race([this.exited, sleep(graceMs)]);
    // Signal the group even when the leader has left: a grandchild may still hold on.
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (!this.#signalGroup(signal)) break;
      await this.#groupGone(graceMs);
    }
    await this.exited;
  }

  /** Sends `signal` to every process in the server's group; false when the group is empty. */
  #signalGroup(signal: NodeJS.Signals | 0): boolean {
    const pid = this.#child.pid;
    if (pid === undefined) return false;
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false; // ESRCH: nobody is left in the group. Signal 0 only asks that question.
    }
  }

  async #groupGone(graceMs: number): Promise<void> {
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && this.#signalGroup(0)) await sleep(20);
  }
  //#endregion
}
