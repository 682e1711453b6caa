// The speed-ups keep their promises: one write per tick, and a server that stops reading while its answers back up.
// Both are checked by what a broken version would get wrong, not by timing anything.
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { PassThrough, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LineDecoder, writeLine, writeLineOrPause } from "./framing.ts";
import { recordingStream } from "./test/writes.ts";

describe("writeLine", () => {
  it("sends the lines of one tick in one write, and those of the next tick in another", async () => {
    const { stream: sink, writes } = recordingStream();
    writeLine(sink, "a");
    writeLine(sink, "b");
    writeLine(sink, "c");
    await new Promise((resolve) => setImmediate(resolve));
    writeLine(sink, "d");
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["a\nb\nc\n", "d\n"]);
  });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("backpressure", () => {
  it("stops reading the input while the output's buffer is full, and reads again once it drains", async () => {
    let release = () => {};
    const output = new Writable({ highWaterMark: 16, write: (_chunk, _encoding, done) => (release = done) });
    const input = new PassThrough();
    input.resume();
    writeLineOrPause(output, input, "x".repeat(32));
    expect(input.isPaused()).toBe(true);
    await tick();
    expect(input.isPaused()).toBe(true);
    release();
    await tick();
    expect(input.isPaused()).toBe(false);
    writeLineOrPause(output, input, "short");
    expect(input.isPaused()).toBe(false);
  });

  // On Linux, Node writes stdout to a pipe synchronously: a server whose client stops reading blocks in write(),
  // so this run shows that nothing is taken in or lost, whichever mechanism holds the server back.
  it("takes no more requests while its answers are not read, and loses none of them", { timeout: 60_000 }, async () => {
    const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, tmpdir()], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    child.stdout.pause(); // the client does not read
    const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: init }) + "\n");
    // 400 echoes of 256 KiB: 100 MiB of answers, far more than the pipes and the stream buffers hold.
    const message = "x".repeat(256 * 1024);
    const count = 400;
    for (let id = 1; id <= count; id++) {
      child.stdin.write(
        JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { message } } }) +
          "\n",
      );
    }
    await sleep(2000);
    // A server that kept reading would have taken all 100 MiB off its stdin by now.
    expect(child.stdin.writableLength).toBeGreaterThan(10 * 1024 * 1024);
    const decoder = new LineDecoder();
    let answers = 0;
    child.stdout.on("data", (chunk: Buffer) => (answers += decoder.push(chunk).length));
    child.stdout.resume();
    while (answers < count + 1) await sleep(50);
    expect(answers).toBe(count + 1);
    child.stdin.end();
  });
});
