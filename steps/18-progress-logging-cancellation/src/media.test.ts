// The PNG and WAV encoders, checked against their formats: chunk CRCs, header fields and the pixels and samples inside.
import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { beepWav, encodePng, gradientPng } from "./media.ts";

// Splits a PNG after its 8-byte signature into chunks, checking each chunk's CRC on the way.
function pngChunks(png: Buffer): { type: string; data: Buffer }[] {
  const chunks = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), "chunk CRC").toBe(crc32(typeAndData));
    chunks.push({ type: typeAndData.toString("ascii", 0, 4), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  return chunks;
}

describe("encodePng", () => {
  it("writes IHDR, IDAT and IEND chunks with valid CRCs", () => {
    const chunks = pngChunks(gradientPng());
    expect(chunks.map((chunk) => chunk.type)).toEqual(["IHDR", "IDAT", "IEND"]);
    const header = chunks[0].data;
    expect([header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]]).toEqual([32, 32, 8, 2]);
  });

  it("stores each row as a filter byte and the row's RGB pixels", () => {
    const png = encodePng(2, 2, (x, y) => [x * 100, y * 200, 7]);
    const rows = inflateSync(pngChunks(png)[1].data);
    expect([...rows]).toEqual([0, 0, 0, 7, 100, 0, 7, 0, 0, 200, 7, 100, 200, 7]);
  });
});

describe("beepWav", () => {
  it("writes a 44-byte PCM header that matches the samples", () => {
    const wav = beepWav(440, 0.25, 8000);
    expect(wav.toString("ascii", 0, 4) + wav.toString("ascii", 8, 16) + wav.toString("ascii", 36, 40)).toBe(
      "RIFFWAVEfmt data",
    );
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect([wav.readUInt16LE(20), wav.readUInt16LE(22), wav.readUInt32LE(24), wav.readUInt16LE(34)]).toEqual([
      1, 1, 8000, 16,
    ]);
    expect(wav.readUInt32LE(40)).toBe(2000 * 2);
    expect(wav.length).toBe(44 + 2000 * 2);
  });

  it("holds a sine wave: starts at zero, peaks at half scale a quarter period in", () => {
    const wav = beepWav(1000, 0.01, 8000); // 8 samples per period
    expect(wav.readInt16LE(44)).toBe(0);
    expect(wav.readInt16LE(44 + 2 * 2)).toBe(16383);
    expect(wav.readInt16LE(44 + 6 * 2)).toBe(-16383);
  });
});
