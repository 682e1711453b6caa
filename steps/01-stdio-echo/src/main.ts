// Demo: a parent process talks to a child over its stdin and stdout.
// Each message is sent in awkward pieces on purpose: framing must put lines back together.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { LineDecoder, MAX_LINE_BYTES } from "./framing.ts";

//#region spawn
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
// Run the child under the same Node, with tsx's loader so it can run TypeScript.
const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath], {
  stdio: ["pipe", "pipe", "pipe"],
});
//#endregion

//#region read-lines
const decoder = new LineDecoder();
const lines: string[] = [];
let wake: (() => void) | undefined;
child.stdout.on("data", (chunk: Buffer) => {
  for (const line of decoder.push(chunk)) lines.push(typeof line === "string" ? line : "(a line over the limit)");
  wake?.();
});

async function nextLine(): Promise<string> {
  while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
  return lines.shift()!;
}
//#endregion

let serverLog = "";
child.stderr.on("data", (chunk: Buffer) => (serverLog += chunk.toString("utf8")));

// Shows bytes as a learner needs to see them: ASCII as is, anything else as \xHH.
function showBytes(piece: Buffer): string {
  let shown = "";
  for (const byte of piece) {
    if (byte === 0x0a) shown += "\\n";
    else if (byte >= 0x20 && byte < 0x7f) shown += String.fromCharCode(byte);
    else shown += `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return `"${shown}"`;
}

//#region send-pieces
// Writes each piece separately, with a pause so the pipe cannot merge them, then reads `expected` answers.
async function exchange(pieces: Buffer[], expected: number): Promise<void> {
  console.log(`parent -> child: ${pieces.map(showBytes).join(" + ")}`);
  for (const piece of pieces) {
    child.stdin.write(piece);
    await sleep(30);
  }
  for (let i = 0; i < expected; i++) console.log(`child -> parent: ${await nextLine()}`);
}
//#endregion

const text = (s: string) => Buffer.from(s, "utf8");
const accented = text("café crème\n"); // "é" is two bytes, 0xC3 0xA9

await exchange([text("hello, world\n")], 1);
await exchange([text("half a li"), text("ne\n")], 1);
await exchange([text("one\ntwo\nthree\n")], 3);
await exchange([accented.subarray(0, 4), accented.subarray(4)], 1);

//#region too-long
// One byte over the limit: the child drops the line as it arrives, says so, and serves the next one.
console.log(`parent -> child: ${MAX_LINE_BYTES + 1} bytes of "x" + "\\n" + "still there?\\n"`);
child.stdin.write(Buffer.alloc(MAX_LINE_BYTES + 1, "x"));
child.stdin.write("\nstill there?\n");
for (let i = 0; i < 2; i++) console.log(`child -> parent: ${await nextLine()}`);
//#endregion

//#region shutdown
child.stdin.end();
const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
console.log(`child exited with code ${code}`);
console.log(`child's stderr:\n${serverLog.trimEnd()}`);
//#endregion
