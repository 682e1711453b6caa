// A stdio transport for the SDK's Client that owns its server's whole process group, so close() also ends what a
// wrapper such as npx started. It bounds each stdout line, and prints the server's stderr with the server's name.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import type { StdioEntry } from "./config.ts";
import { printable } from "./printable.ts";

export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL_LINES = 5;
const GRACE_MS = 2000;

/** Resolves with `promise`, or with undefined after `ms`; the timer never outlives the wait. */
export async function upTo<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

export class ServerTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Resolves once the server is gone, with why: "exited with code 3", "was killed by SIGTERM". */
  exited: Promise<string> = Promise.resolve("was never started");
  /** Set when this transport gave up on the server itself, and why. */
  fault: string | undefined;
  /** Why the server is gone, once it is. */
  exitReason: string | undefined;
  #child: ChildProcessWithoutNullStreams | undefined;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #stderrTail: string[] = [];
  #closing: Promise<void> | undefined;
  #escaped: number[] = [];

  /** A transport for server `name`, started from `entry`; `log` gets its stderr, line by line. */
  constructor(
    readonly name: string,
    readonly entry: StdioEntry,
    readonly log: (line: string) => void,
    readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  //#region start
  async start(): Promise<void> {
    // detached: the server leads a new process group that close() signals whole. The env is passed in full, since
    // the SDK's stdio client would otherwise give the server only HOME, LOGNAME, PATH, SHELL, TERM and USER.
    if (this.#closing) throw new Error(`server "${this.name}" was closed before it started`); // nothing to leave behind
    const { command, args, env, cwd } = this.entry;
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: "pipe", detached: true });
    this.#child = child;
    this.exited = new Promise((resolve) => {
      child.on("error", (error) => resolve((this.exitReason = `could not be started: ${error.message}`)));
      child.on("exit", (code, signal) =>
        resolve((this.exitReason = signal ? `was killed by ${signal}` : `exited with code ${code}`)),
      );
    });
    child.on("close", () => this.onclose?.()); // after the exit and the end of its pipes: nothing more can arrive
    child.stdin.on("error", () => {}); // EPIPE when the server just died; its exit reports that instead
    child.stdout.on("data", (chunk: Buffer) => this.#read(chunk));
    this.#drainStderr(child);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
  }
  //#endregion

  //#region framing
  // Only the new chunk is scanned for a newline; what came before is kept as a list of chunks, joined once per line.
  #read(chunk: Buffer): void {
    if (this.fault !== undefined) return;
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.#keep(chunk.subarray(start, end));
      if (this.fault !== undefined) return;
      const line = Buffer.concat(this.#pending).toString("utf8");
      [this.#pending, this.#pendingBytes, start] = [[], 0, end + 1];
      if (line.trim() !== "") this.#deliver(line);
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
  }

  #keep(part: Buffer): void {
    this.#pendingBytes += part.length;
    this.#pending.push(part);
    if (this.#pendingBytes <= this.maxLineBytes) return;
    // Past the bound nothing is kept: the server has broken the protocol, and memory stays bounded.
    this.#pending = [];
    this.fault = `wrote a line of more than ${this.maxLineBytes} bytes to stdout`;
    this.log(`${this.#label} ${this.fault}; closing it`);
    void this.close();
  }

  #deliver(line: string): void {
    try {
      this.onmessage?.(JSON.parse(line) as JSONRPCMessage); // the Client checks the message's shape itself
    } catch {
      // The SDK's client drops such a line without a word; a stray console.log in a server deserves to be seen.
      this.log(`${this.#label} stdout line that is not JSON, skipped: ${printable(line.slice(0, 200))}`);
    }
  }
  //#endregion

  //#region stderr
  // Always read stderr: a full, unread pipe blocks the server's next write to it. A line is bounded as a stdout line
  // is, and only the new chunk is scanned: a server that never writes a newline costs neither memory nor time.
  #drainStderr(child: ChildProcessWithoutNullStreams): void {
    let [pending, bytes, cut] = [[] as Buffer[], 0, false]; // the line under way; cut: printed, the rest is dropped
    const take = (raw: string) => {
      const line = printable(raw);
      this.log(`${this.#label} ${line}`);
      this.#stderrTail = [...this.#stderrTail, line].slice(-STDERR_TAIL_LINES);
    };
    child.stderr.on("data", (chunk: Buffer) => {
      let start = 0;
      for (let end = chunk.indexOf(10); ; end = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, end === -1 ? chunk.length : end);
        if (!cut) {
          pending.push(part);
          bytes += part.length;
        }
        if (!cut && bytes > this.maxLineBytes) {
          take(
            `${Buffer.concat(pending).subarray(0, this.maxLineBytes).toString("utf8")} ` +
              `[cut: a line of more than ${this.maxLineBytes} bytes]`,
          );
          [pending, cut] = [[], true];
        }
        if (end === -1) return;
        if (!cut) take(Buffer.concat(pending).toString("utf8"));
        [pending, bytes, cut, start] = [[], 0, false, end + 1];
      }
    });
    child.stderr.on("end", () => !cut && bytes > 0 && take(Buffer.concat(pending).toString("utf8")));
  }

  /** The server's name in brackets, as each of its lines is printed. */
  get #label(): string {
    return `[${printable(this.name)}]`;
  }

  /** The last lines the server wrote to stderr. */
  get stderrTail(): string[] {
    return this.#stderrTail;
  }
  //#endregion

  /** Writes one message to the server's stdin, waiting for the pipe to drain when it is full. */
  async send(message: JSONRPCMessage): Promise<void> {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server "${this.name}" is not running`);
    if (!child.stdin.write(`${JSON.stringify(message)}\n`))
      await new Promise((resolve) => child.stdin.once("drain", resolve));
  }

  /** The server's process id, which is also its process group id. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  //#region close
  /** Ends stdin, waits 2 s, then SIGTERM and after 2 s more SIGKILL to the whole group. Safe to call twice. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (!this.#child) return;
    // first: once the server exits, they lose their link to it
    this.#escaped = await escapedDescendants(this.#child.pid!);
    this.#child.stdin.end();
    await upTo(this.exited, GRACE_MS);
    // Signal the group even when the leader has left: a grandchild may still hold on.
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (!this.#signalGroup(signal)) break;
      if (signal === "SIGKILL")
        this.log(
          `${this.#label} still running ${GRACE_MS} ms after SIGTERM: SIGKILL to its process group ${this.#child.pid}`,
        );
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && this.#signalGroup(0)) await sleep(20);
    }
    await this.exited;
  }

  /**
   * Sends `signal` to the server's group and each descendant that left it; false when none is left (signal 0 only
   * asks).
   */
  #signalGroup(signal: NodeJS.Signals | 0): boolean {
    let reached = false;
    for (const target of [-this.#child!.pid!, ...this.#escaped]) {
      try {
        process.kill(target, signal);
        reached = true;
      } catch {
        // Gone already.
      }
    }
    return reached;
  }
  //#endregion
}

/** The processes below `server` that have left its process group. */
// A descendant that starts a session of its own (spawn's `detached`) leaves the group; `ps`, the same on Linux and
// macOS, still shows it below the server. Read once, before the first signal: what starts later is not followed.
async function escapedDescendants(server: number): Promise<number[]> {
  const { stdout } = await promisify(execFile)("ps", ["-A", "-o", "pid=", "-o", "ppid=", "-o", "pgid="]).catch(() => ({
    stdout: "",
  }));
  const rows = stdout
    .trim()
    .split("\n")
    .map((row) => row.trim().split(/\s+/).map(Number));
  const tree = [server];
  for (let i = 0; i < tree.length; i++) tree.push(...rows.filter(([, ppid]) => ppid === tree[i]).map(([pid]) => pid!));
  return rows.filter(([pid, , pgid]) => pgid !== server && tree.includes(pid!)).map(([pid]) => pid!);
}
