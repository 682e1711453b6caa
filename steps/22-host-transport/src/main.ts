// Demo: the SDK's Client over the host's own transport, to a server that a shell started, as npx would. The
// server sees the host's environment, what it writes comes back under its name, and close() empties its group.
import { fileURLToPath } from "node:url";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
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
console.log(`\nwhat the host printed for the server:\n  ${printed.join("\n  ")}`);
//#endregion
