// Demo: a JSON-RPC server in a child process, driven one raw line at a time.
// Every line is printed as sent (->) and as received (<-): the wire is the lesson.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { LineDecoder } from "./framing.ts";

//#region spawn
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
// A small size limit, so that the demo can show a message over it without sending megabytes.
const child = spawn(
  process.execPath,
  ["--import", import.meta.resolve("tsx"), serverPath, "--max-line-bytes", "1000"],
  {
    stdio: ["pipe", "pipe", "pipe"],
  },
);
//#endregion

//#region read-lines
const decoder = new LineDecoder();
const lines: string[] = [];
let wake: (() => void) | undefined;
let exited = false;
child.stdout.on("data", (chunk: Buffer) => {
  for (const line of decoder.push(chunk)) lines.push(typeof line === "string" ? line : "(a line over the limit)");
  wake?.();
});
child.on("close", () => {
  exited = true;
  wake?.();
});

async function nextLine(): Promise<string> {
  while (lines.length === 0) {
    if (exited) throw new Error(`the server exited; its stderr:\n${serverLog}`);
    await new Promise<void>((resolve) => (wake = resolve));
  }
  return lines.shift()!;
}
//#endregion

let serverLog = "";
child.stderr.on("data", (chunk: Buffer) => (serverLog += chunk.toString("utf8")));

//#region show
/** Sends one line and prints the `replies` lines that answer it; a notification gets none. */
async function show(line: string, replies = 1, shown = line): Promise<void> {
  console.log(`-> ${shown}`);
  child.stdin.write(line + "\n");
  for (let i = 0; i < replies; i++) console.log(`<- ${await nextLine()}`);
}
//#endregion

console.log("# A request gets a response with the same id; a notification (no id) gets nothing");
await show('{"jsonrpc":"2.0","id":1,"method":"sum","params":{"numbers":[1,2,3]}}');
await show('{"jsonrpc":"2.0","id":"two","method":"sum","params":{"numbers":[0.5,0.25]}}');
await show('{"jsonrpc":"2.0","method":"sum","params":{"numbers":[5]}}', 0);
await show('{"jsonrpc":"2.0","id":3,"method":"sum","params":{"numbers":[]}}');

console.log("\n# Each malformed message gets its error, and the server keeps serving");
await show('{"jsonrpc":"2.0","id":4,"method":"sum"');
await show('"hello"');
await show('{"jsonrpc":"1.0","id":5,"method":"sum"}');
await show('{"jsonrpc":"2.0","id":{"n":6},"method":"sum"}');
await show('{"jsonrpc":"2.0","id":7,"method":"product","params":{"numbers":[2,3]}}');
await show('{"jsonrpc":"2.0","id":8,"method":"sum","params":{"numbers":["1","2"]}}');
await show('{"jsonrpc":"2.0","id":9,"method":"sum","params":{"numbers":[1],"constructor":2}}');
await show('{"jsonrpc":"2.0","id":10,"method":"sum","params":{"numbers":[1e308,1e308]}}');
const long = `{"jsonrpc":"2.0","id":11,"method":"sum","params":{"numbers":[${Array(600).fill(1).join(",")}]}}`;
await show(long, 1, `${long.slice(0, 60)}… (${long.length} bytes)`);

console.log("\n# A batch gets one array back; the notification in it is left out");
await show('[{"jsonrpc":"2.0","id":12,"method":"sum","params":{"numbers":[1,1]}},{"jsonrpc":"2.0","method":"sum"},42]');
await show("[]");

//#region shutdown
child.stdin.end();
const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
console.log(`\nserver exited with code ${code}; its stderr:\n${serverLog.trimEnd()}`);
//#endregion
