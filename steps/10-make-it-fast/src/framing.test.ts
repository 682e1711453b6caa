import { describe, expect, it } from "vitest";
import { LineDecoder, LineTooLong, MAX_LINE_BYTES } from "./framing.ts";

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

  it("keeps a line of exactly the limit, and replaces a longer one that arrives whole", () => {
    const decoder = new LineDecoder(4);
    expect(decoder.push(bytes("abcd\nabcde\nok\n"))).toEqual(["abcd", new LineTooLong(4), "ok"]);
  });

  it("reports a line the moment it passes the limit, then drops it up to its newline", () => {
    const decoder = new LineDecoder(4);
    expect(decoder.push(bytes("ok\nabc"))).toEqual(["ok"]);
    expect(decoder.push(bytes("de"))).toEqual([new LineTooLong(4)]);
    expect(decoder.push(bytes("fghij".repeat(100)))).toEqual([]);
    expect(decoder.push(bytes("xyz\nnext\n"))).toEqual(["next"]);
    expect(decoder.end()).toBeUndefined();
  });

  it("defaults to 16 MiB", () => {
    const decoder = new LineDecoder();
    expect(decoder.maxLineBytes).toBe(MAX_LINE_BYTES);
    expect(decoder.push(Buffer.alloc(MAX_LINE_BYTES, "x"))).toEqual([]);
    expect(decoder.push(bytes("x"))).toEqual([new LineTooLong(MAX_LINE_BYTES)]);
  });
});
