// The --wire fixture: a demo that talks JSON-RPC to two echo servers and to a CLI that starts a third, and its exact
// output. It proves labels tell processes apart (also one level down), lines split mid-character are framed, long
// strings shortened, lines that are not JSON-RPC are shown marked, and secrets are masked in JSON and in plain text
// alike.

const packageJson = `{\n  "name": "@fixture/01-wire",\n  "version": "1.0.0",\n  "description": "Wire fixture",\n  "type": "module"\n}\n`;

// A JSON-RPC echo server that also writes lines the wire view must mark: plain text and JSON without "jsonrpc".
const echoServer = `import { createInterface } from "node:readline";
process.stdout.write("echo: ready; password=hunter2\\n");
process.stdout.write('{"not":"jsonrpc"}\\n');
createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: message.params }) + "\\n");
});
`;

const rpcClient = `import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
export function startEcho() {
  const server = fileURLToPath(new URL("./echo.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), server], { stdio: ["pipe", "pipe", "inherit"] });
  const waiting = new Map<number, (result: any) => void>();
  let buffered = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    buffered += text;
    for (let newline = buffered.indexOf("\\n"); newline !== -1; newline = buffered.indexOf("\\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.startsWith("{")) waiting.get(JSON.parse(line).id)?.(JSON.parse(line).result);
    }
  });
  const answer = (id: number) => new Promise<any>((resolve) => waiting.set(id, resolve));
  const request = (id: number, params: object) => {
    child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params }) + "\\n");
    return answer(id);
  };
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return { child, answer, request, exited };
}
`;

const wireMain = `import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { startEcho } from "./rpc.ts";

const first = startEcho();
const bytes = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { text: "café", access_token: "t0k3n" } }) + "\\n");
const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
const firstAnswer = first.answer(1);
first.child.stdin.write(bytes.subarray(0, split));
await sleep(30);
first.child.stdin.write(bytes.subarray(split));
console.log(\`main: 1 answered \${(await firstAnswer).text}\`);

const second = startEcho();
console.log(\`main: 2 answered \${(await second.request(2, { text: "a".repeat(100_000) })).text.length} chars\`);

const cliPath = fileURLToPath(new URL("./cli.ts", import.meta.url));
const cli = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), cliPath], { stdio: ["ignore", "pipe", "inherit"] });
let said = "";
cli.stdout.on("data", (chunk) => (said += chunk));
await new Promise((resolve) => cli.on("close", resolve));
console.log(\`main: cli said \${said.trim()}\`);

first.child.stdin.end(JSON.stringify({ jsonrpc: "2.0", method: "bye" }) + "\\n");
second.child.stdin.end();
await Promise.all([first.exited, second.exited]);
console.log("main: done");
`;

const wireCli = `import { startEcho } from "./rpc.ts";
const echo = startEcho();
const result = await echo.request(7, { text: "from cli" });
echo.child.stdin.end();
console.log(\`cli: echo answered \${result.text}\`);
`;

export const WIRE = {
  "package.json": packageJson,
  "src/main.ts": wireMain,
  "src/rpc.ts": rpcClient,
  "src/echo.ts": echoServer,
  "src/cli.ts": wireCli,
};

const long = `${"a".repeat(80)}…(+99,920 chars)`;
const banner = (label) => `<- [${label}] (not JSON-RPC) "echo: ready; password=***"
<- [${label}] (not JSON-RPC) "{\\"not\\":\\"jsonrpc\\"}"`;
export const WIRE_EXPECTED = `-> [1 echo.ts] {"jsonrpc":"2.0","id":1,"method":"echo","params":{"text":"café","access_token":"***"}}
${banner("1 echo.ts")}
<- [1 echo.ts] {"jsonrpc":"2.0","id":1,"result":{"text":"café","access_token":"***"}}
main: 1 answered café
-> [2 echo.ts] {"jsonrpc":"2.0","id":2,"method":"echo","params":{"text":"${long}"}}
${banner("2 echo.ts")}
<- [2 echo.ts] {"jsonrpc":"2.0","id":2,"result":{"text":"${long}"}}
main: 2 answered 100000 chars
-> [3 cli.ts/1 echo.ts] {"jsonrpc":"2.0","id":7,"method":"echo","params":{"text":"from cli"}}
${banner("3 cli.ts/1 echo.ts")}
<- [3 cli.ts/1 echo.ts] {"jsonrpc":"2.0","id":7,"result":{"text":"from cli"}}
<- [3 cli.ts] (not JSON-RPC) "cli: echo answered from cli"
main: cli said cli: echo answered from cli
-> [1 echo.ts] {"jsonrpc":"2.0","method":"bye"}
main: done
`;
