// Line framing for stdio: bytes in, whole UTF-8 lines out; lines out, one write per tick.
// Bytes are kept until their "\n" arrives and decoded only then, so a character split across chunks survives.
import type { Writable } from "node:stream";

export class LineDecoder {
  #pending: Buffer[] = [];

  /** Takes one chunk as it came off the pipe; returns the lines it completed, without "\n". */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    // Scan only the new chunk: rescanning the whole buffer makes large messages quadratic.
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      lines.push(this.#finish(chunk.subarray(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    return lines;
  }

  /** The stream ended: returns a last line that had no "\n", if any. */
  end(): string | undefined {
    if (this.#pending.length === 0) return undefined;
    return this.#finish(Buffer.alloc(0));
  }

  #finish(tail: Buffer): string {
    // 0x0A never occurs inside a multi-byte UTF-8 character, so a whole line always decodes cleanly.
    const bytes = this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail]);
    this.#pending = [];
    const text = bytes.toString("utf8");
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}

//#region write-line
/** Writes `line` and its "\n". Lines written in the same tick leave together, in one write. */
export function writeLine(stream: Writable, line: string): void {
  // Each write is a system call that wakes the reader; one per message costs more CPU than the JSON work.
  if (!stream.writableCorked) {
    stream.cork();
    process.nextTick(() => stream.uncork());
  }
  stream.write(line + "\n");
}
//#endregion
