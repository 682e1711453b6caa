// Demo: the SDK's Client over the host's own transport, to a server that a shell started as npx would, then
// to two that break the rules: one floods stdout, one writes escape sequences. Each fails alone, in one sentence.
import { fileURLToPath } from "node:url";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
import { connect } from "./connection.ts";
import { leftInGroups } from "./groups.ts";
import { ServerTransport } from "./transport.ts";

const server = fileURLToPath(new URL("./fixtures/tools.mjs", import.meta.url));
const text = (result: CallToolResult) => result.content.map((item) => (item.type === "text" ? item.text : "")).join("");

//#region run
// What the transport prints for the server is kept and shown at the end, so that it does not cut into the calls.
const printed: string[] = [];
process.env.FIXTURE_SETTING = "exported in the host's shell"; // the SDK's own stdio transport would not pass it on
// A shell starts the server as its child and waits for it, as npx or a wrapper script would.
const launcher = ["-c", '"$0" "$1" vault; exit $?', process.execPath, server];
const entry = { type: "stdio" as const, command: "sh", args: launcher, env: {} };
const transport = new ServerTransport("vault", entry, (line) => printed.push(line));
const client = new Client({ name: "learn-mcp-host", version: "0.1.0" });
client.onerror = (error) => printed.push(`[vault] ${error.message}`); // what the Client refuses, such as a stray answer
console.log("starting vault through a shell, as npx or a wrapper script would start a server");
await client.connect(transport);
const group = transport.pid!;
const running = await leftInGroups([group], 0);
console.log(`vault runs in a process group of its own: ${running.length} processes, the shell and the server`);
console.log(`tools: ${(await client.listTools()).tools.map((tool) => tool.name).join(", ")}`);
console.log(`setting -> ${text((await client.callTool({ name: "setting" })) as CallToolResult)}`);
console.log(`noise -> ${text((await client.callTool({ name: "noise" })) as CallToolResult)}`);
await client.close();
console.log(`after close(): ${(await leftInGroups([group])).length} processes left in its group`);
//#endregion

//#region hostile
// The bound is 1 MiB here, 16 MiB by default. The terminal would obey the escape sequences: they set its title, clear
// the screen and move the cursor back over "red".
const hostile = "\u001b]0;pwned\u0007\u001b[2Jred\rdone";
const script = (code: string) => ({ type: "stdio" as const, command: process.execPath, args: ["-e", code], env: {} });
const flood = "process.stdout.write('x'.repeat(2 ** 21)); process.stdin.resume().on('end', () => process.exit())";
const keep = (line: string) => printed.push(line);
for (const transport of [
  new ServerTransport("flood", script(flood), keep, 2 ** 20),
  new ServerTransport("bad\u001b[31mname", script(`console.error(${JSON.stringify(hostile)})`), keep),
]) {
  const outcome = await connect(transport, 5_000).then(
    () => "connected",
    (error: Error) => error.message,
  );
  console.log(`\n${JSON.stringify(transport.name)}: ${outcome}`);
  await transport.close();
}
console.log(`bad name's stderr: ${JSON.stringify(hostile)}`);
//#endregion
console.log(`\nwhat the host printed for the servers:\n  ${printed.join("\n  ")}`);
