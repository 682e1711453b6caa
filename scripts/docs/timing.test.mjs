// The demo time targets: multiples of a bare start, with a floor in milliseconds for a fast machine.
import { describe, expect, it } from "vitest";
import { asMultiples, measureBareStart, missedTargets } from "./timing.mjs";

describe("demo times", () => {
  it("are kept as multiples of the bare start, to one decimal", () => {
    expect(asMultiples({ firstByteMs: 612, elapsedMs: 2_490 }, 450)).toEqual({ firstByte: 1.4, end: 5.5, bareMs: 450 });
  });

  it("meet the targets within 2 bare starts to the first byte and 6 to the end", () => {
    expect(missedTargets({ firstByte: 2, end: 6, bareMs: 600 })).toEqual([]);
    expect(missedTargets({ firstByte: 2.1, end: 6.1, bareMs: 600 })).toEqual([
      "first byte at 2.1x a bare start (target 2x)",
      "end at 6.1x a bare start (target 6x)",
    ]);
  });

  it("allow at least 1 s to the first byte and 3 s to the end on a fast machine", () => {
    // A 250 ms bare start: 1 s is 4 starts, 3 s is 12.
    expect(missedTargets({ firstByte: 3.9, end: 11.9, bareMs: 250 })).toEqual([]);
    expect(missedTargets({ firstByte: 4.1, end: 12.1, bareMs: 250 })).toEqual([
      "first byte at 4.1x a bare start (target 4x)",
      "end at 12.1x a bare start (target 12x)",
    ]);
  });

  it("measure a real bare tsx start", async () => {
    const bareMs = await measureBareStart();
    // A start always costs node's own start-up; a broken measurement (a failed spawn) rejects instead.
    expect(bareMs).toBeGreaterThan(20);
  });
});
