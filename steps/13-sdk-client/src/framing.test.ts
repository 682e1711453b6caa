import { Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { LineDecoder, writeLine } from "./framing.ts";

const bytes = (s: string) => Buffer.from(s, "utf8");

describe("LineDecoder", () => {
  it("holds half a line until the rest arrives", () => {
    const decoder = new LineDecoder();
    expect(decoder.push(bytes("half a li"))).toEqual([]);
    expect(decoder.push(bytes("ne\nnext"))).toEqual(["half a line"]);
    expect(decoder.push(bytes(" one\n"))).toEqual(["next one"]);
  });

  it("splits one chunk that carries several lines", () => {
    expect(new LineDecoder().push(bytes("one\ntwo\n\nthree\n"))).toEqual(["one", "two", "", "three"]);
  });

  it("rejoins a multi-byte character split at every possible byte", () => {
    const line = bytes("café 🙂 crème\n");
    for (let cut = 1; cut < line.length; cut++) {
      const decoder = new LineDecoder();
      const lines = [...decoder.push(line.subarray(0, cut)), ...decoder.push(line.subarray(cut))];
      expect(lines, `cut at byte ${cut}`).toEqual(["café 🙂 crème"]);
    }
  });

  it("survives a line delivered one byte at a time", () => {
    const decoder = new LineDecoder();
    const lines = [...bytes("Grüße\n")].flatMap((byte) => decoder.push(Buffer.from([byte])));
    expect(lines).toEqual(["Grüße"]);
  });

  it("drops a trailing carriage return and returns an unterminated last line at the end", () => {
    const decoder = new LineDecoder();
    expect(decoder.push(bytes("windows\r\nlast"))).toEqual(["windows"]);
    expect(decoder.end()).toBe("last");
    expect(decoder.end()).toBeUndefined();
  });
});

// A stream that records each write it is asked to make, batched (writev) or not.
function recorder() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString("utf8"));
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString("utf8")).join(""));
      done();
    },
  });
  return { stream, writes };
}

describe("writeLine", () => {
  it("sends the lines of one tick in one write, in order", async () => {
    const { stream, writes } = recorder();
    for (const line of ["one", "two", "three"]) writeLine(stream, line);
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(["one\ntwo\nthree\n"]);
  });

  it("starts a new write for a line written in a later tick", async () => {
    const { stream, writes } = recorder();
    writeLine(stream, "first");
    await nextTurn();
    writeLine(stream, "second");
    await nextTurn();
    expect(writes).toEqual(["first\n", "second\n"]);
  });
});
