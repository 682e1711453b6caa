// Line framing for stdio: bytes in, whole UTF-8 lines out, and never more than a set number of bytes held.
// Bytes are kept until their "\n" arrives and decoded only then, so a character split across chunks survives.
import type { Readable, Writable } from "node:stream";

// 16 MiB: far above any sane message, far below what would exhaust the process's memory.
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Stands where a line grew past the limit; its bytes were dropped, up to and including its "\n". */
export class LineTooLong {
  constructor(readonly limit: number) {}
}

export type Line = string | LineTooLong;

export class LineDecoder {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #dropping = false; // inside a line that was already reported as too long

  constructor(readonly maxLineBytes = MAX_LINE_BYTES) {}

  /** Takes one chunk as it came off the pipe; returns the lines it completed, without "\n", in order. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    // Scan only the new chunk: rescanning the whole buffer makes large messages quadratic.
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      if (this.#dropping) this.#dropping = false;
      else lines.push(this.#finish(chunk.subarray(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length && !this.#dropping) this.#keep(chunk.subarray(start), lines);
    return lines;
  }

  /** The stream ended: returns a last line that had no "\n", if any. */
  end(): string | undefined {
    if (this.#pending.length === 0) return undefined;
    return this.#finish(Buffer.alloc(0)) as string;
  }

  //#region bound
  // Reported the moment the limit is passed, not at the "\n": a peer that never sends one must not be waited for.
  #keep(rest: Buffer, lines: Line[]): void {
    this.#pending.push(rest);
    this.#pendingBytes += rest.length;
    if (this.#pendingBytes <= this.maxLineBytes) return;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#dropping = true;
    lines.push(new LineTooLong(this.maxLineBytes));
  }
  //#endregion

  #finish(tail: Buffer): Line {
    const bytes = this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail]);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (bytes.length > this.maxLineBytes) return new LineTooLong(this.maxLineBytes);
    // 0x0A never occurs inside a multi-byte UTF-8 character, so a whole line always decodes cleanly.
    const text = bytes.toString("utf8");
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}

//#region write-line
/**
 * Writes `line` and its "\n"; lines written in the same tick leave together, in one write. False: the buffer is full.
 */
export function writeLine(stream: Writable, line: string): boolean {
  // Each write is a system call that wakes the reader; one per message costs more CPU than the JSON work.
  if (!stream.writableCorked) {
    stream.cork();
    process.nextTick(() => stream.uncork());
  }
  return stream.write(line + "\n");
}
//#endregion

//#region backpressure
/** Writes `line` as writeLine does; when `output`'s buffer is full, stops reading `input` until `output` drains. */
export function writeLineOrPause(output: Writable, input: Readable, line: string): void {
  if (writeLine(output, line) || input.isPaused()) return;
  input.pause();
  output.once("drain", () => input.resume());
}
//#endregion
