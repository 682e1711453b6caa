// Generates the image and the sound that the sample_media tool returns: a PNG and a WAV, encoded by hand.
// Both are built in memory from a formula, so the server needs no asset files and no image or audio package.
import { crc32, deflateSync } from "node:zlib";

//#region png
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// A chunk is length, type, data and a CRC-32 of type + data.
function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** An 8-bit RGB PNG whose pixel (x, y) has the colour `pixel(x, y)` returns. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => number[]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2], 8); // bit depth 8, colour type 2 (RGB); compression, filter and interlace stay 0
  const rowLength = 1 + width * 3; // each row starts with its filter byte, 0 = none
  const rows = Buffer.alloc(height * rowLength);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) rows.set(pixel(x, y), y * rowLength + 1 + x * 3);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(rows)),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}
//#endregion

//#region wav
/** A mono 16-bit PCM WAV: a 44-byte RIFF header, then the samples, little-endian. */
export function encodeWav(samples: number[], sampleRate: number): Buffer {
  const wav = Buffer.alloc(44 + samples.length * 2);
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(wav.length - 8, 4);
  wav.write("WAVEfmt ", 8, "ascii");
  wav.writeUInt32LE(16, 16); // size of the fmt chunk
  wav.writeUInt16LE(1, 20); // format 1 = PCM
  wav.writeUInt16LE(1, 22); // one channel
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28); // bytes per second
  wav.writeUInt16LE(2, 32); // bytes per sample frame
  wav.writeUInt16LE(16, 34); // bits per sample
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(samples.length * 2, 40);
  samples.forEach((sample, i) => wav.writeInt16LE(sample, 44 + i * 2));
  return wav;
}
//#endregion

//#region samples
/** A 32×32 gradient: red grows to the right, green grows downwards. */
export const gradientPng = (): Buffer => encodePng(32, 32, (x, y) => [x * 8, y * 8, 160]);

/** A quarter-second 440 Hz beep at 8 kHz, at half of full scale. */
export function beepWav(hz = 440, seconds = 0.25, sampleRate = 8000): Buffer {
  const samples = Array.from({ length: Math.round(seconds * sampleRate) }, (_, i) =>
    Math.round(16383 * Math.sin((2 * Math.PI * hz * i) / sampleRate)),
  );
  return encodeWav(samples, sampleRate);
}
//#endregion
