import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES } from "./framing.ts";

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  child?.kill();
  child = undefined;
});

// Sends each piece as its own write, pausing so the pipe delivers them as separate chunks.
async function run(pieces: Buffer[]): Promise<{ stdout: Buffer; stderr: string; code: number | null }> {
  const started = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath]);
  child = started;
  const stdout: Buffer[] = [];
  let stderr = "";
  started.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
  started.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  for (const piece of pieces) {
    started.stdin.write(piece);
    await sleep(40);
  }
  started.stdin.end();
  // "close", not "exit": it comes after the last bytes of stdout and stderr have been read.
  const code = await new Promise<number | null>((resolve) => started.on("close", resolve));
  return { stdout: Buffer.concat(stdout), stderr, code };
}

describe("echo server", () => {
  it("answers a line split across two writes once, whole", async () => {
    const { stdout, code } = await run([Buffer.from("half a li"), Buffer.from("ne\n")]);
    expect(stdout.toString()).toBe("HALF A LINE\n");
    expect(code).toBe(0);
  });

  it("answers each line of a write that carries several", async () => {
    const { stdout } = await run([Buffer.from("one\ntwo\nthree\n")]);
    expect(stdout.toString()).toBe("ONE\nTWO\nTHREE\n");
  });

  it("keeps a UTF-8 character intact when its bytes arrive in different writes", async () => {
    const line = Buffer.from("café\n");
    const { stdout } = await run([line.subarray(0, 4), line.subarray(4)]);
    expect(stdout.toString()).toBe("CAFÉ\n");
    expect(stdout.includes(Buffer.from("\uFFFD"))).toBe(false);
  });

  it("answers a last line without a newline and keeps its logs off stdout", async () => {
    const { stdout, stderr } = await run([Buffer.from("first\nlast")]);
    expect(stdout.toString()).toBe("FIRST\nLAST\n");
    expect(stderr).toContain("[server] ready");
    expect(stderr).toContain("stdin closed after 2 lines");
  });

  it("drops a line over the limit with one error line and keeps serving", async () => {
    const { stdout, code } = await run([Buffer.alloc(MAX_LINE_BYTES + 1, "x"), Buffer.from("\nnext\n")]);
    expect(stdout.toString()).toBe(`ERROR: a line over ${MAX_LINE_BYTES} bytes was dropped\nNEXT\n`);
    expect(code).toBe(0);
  });
});
