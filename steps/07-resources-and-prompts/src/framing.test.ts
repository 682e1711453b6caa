import { describe, expect, it } from "vitest";
import { LineDecoder } from "./framing.ts";

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
