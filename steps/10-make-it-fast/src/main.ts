// Demo: the hand-written client and server under load: 10,000 calls in flight, then one 10 MB message.
// Times are printed for the reader; the chapter quotes the measured comparison with the SDK, which is steadier.
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient, type CallToolResult } from "./client.ts";

const sandbox = await mkdtemp(join(tmpdir(), "learn-mcp-make-it-fast-"));
process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));
const server = [
  "--import",
  import.meta.resolve("tsx"),
  fileURLToPath(new URL("./server.ts", import.meta.url)),
  sandbox,
];
const textOf = (result: CallToolResult) => result.content[0]?.text;
const since = (started: number) => `${Math.round(performance.now() - started)} ms`;

const calls = 10_000;
// The line starts before the server does, so the reader sees at once what the demo is waiting for.
process.stdout.write(`${calls} add calls in flight: `);
const client = new McpClient(process.execPath, server, { timeoutMs: 120_000 });
try {
  await client.connect();

  //#region in-flight
  let started = performance.now();
  const results = await Promise.all(Array.from({ length: calls }, (_, i) => client.callTool("add", { a: i, b: 1 })));
  const paired = results.filter((result, i) => textOf(result) === String(i + 1)).length;
  console.log(`${paired} answers paired with their requests, in ${since(started)}`);
  //#endregion

  //#region big
  // Mixed ASCII and three-byte characters, so that chunk boundaries fall inside characters too.
  const message = "stdio 数据 ".repeat(800_000);
  started = performance.now();
  const echoed = textOf(await client.callTool("echo", { message }));
  const size = (Buffer.byteLength(message) / 1e6).toFixed(1);
  console.log(
    `echo of ${size} MB of UTF-8 text: ${echoed === message ? "came back intact" : "CORRUPTED"}, in ${since(started)}`,
  );
  //#endregion
} finally {
  await client.close();
}
