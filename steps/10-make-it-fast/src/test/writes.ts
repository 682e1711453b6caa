// A stream that keeps what each write brought: how many writes the lines of one tick became is what the tests check.
import { Writable } from "node:stream";

/** A Writable that records each write as one string; a writev's chunks are one write, as they are for a pipe. */
export function recordingStream(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => String(chunk)).join(""));
      done();
    },
    write(chunk, _encoding, done) {
      writes.push(String(chunk));
      done();
    },
  });
  return { stream, writes };
}
