// Line framing for the raw pipe, both ends: bytes in, each whole line out with its "\n" still on.
// Only the new chunk is scanned, and a line is copied once, when its "\n" arrives.
import type { Writable } from "node:stream";

/** Returns a chunk handler that calls `onLine` with every completed line's bytes, "\n" included. */
export function splitLines(onLine: (line: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer[] = [];
  return (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const line = chunk.subarray(start, newline + 1);
      onLine(pending.length === 0 ? line : Buffer.concat([...pending, line]));
      pending = [];
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  };
}

/** The hand-written JSON-RPC steps' writeLine, for the batched floor: what is written in one tick leaves in one
 * write. */
export function writeBatched(stream: Writable, line: string): void {
  if (!stream.writableCorked) {
    stream.cork();
    process.nextTick(() => stream.uncork());
  }
  stream.write(line);
}
