// Demo: the hand-written McpClient drives this step's own server, then a server nobody here wrote,
// then a server that floods its stdout without a newline, which the client cuts off and stops.
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonRpcError, McpClient, type CallToolResult } from "./client.ts";

const tsx = import.meta.resolve("tsx");
const sandbox = await mkdtemp(join(tmpdir(), "learn-mcp-mcp-client-"));
// "exit" also fires when the demo crashes, so the temporary folder never outlives it.
process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));
const ownServer = ["--import", tsx, fileURLToPath(new URL("./server.ts", import.meta.url)), sandbox];
const everything = fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js"));
const firstText = (result: CallToolResult) => result.content.find((item) => item.type === "text")?.text;

//#region flood
// Started first and reported last: stopping a server that ignores its stdin takes the close grace period, spent here
// while the other two servers answer.
async function flood(): Promise<string> {
  const flood = "process.stdout.write(Buffer.alloc(20 * 1024 * 1024, 'x')); setInterval(() => {}, 1000);";
  const flooded = new McpClient(process.execPath, ["-e", flood]);
  const started = Date.now();
  try {
    await flooded.connect();
    await flooded.close();
    return "initialize -> answered: the line limit did not hold";
  } catch (error) {
    const stopped = await flooded.close().then(() => "stopped");
    return (
      `initialize -> ${(error as Error).message}; the server was ` +
      `${stopped} (${Date.now() - started < 5000 ? "within 5 s" : "late"})`
    );
  }
}
const flooding = flood();
// The constructor starts the server: server-everything gets ready while this step's own server answers.
const reference = new McpClient(process.execPath, [everything, "stdio"]);
//#endregion

//#region own-server
console.log("== this step's server (src/server.ts)");
const client = new McpClient(process.execPath, ownServer);
const { protocolVersion, serverInfo } = await client.connect();
console.log(`initialize -> protocolVersion ${protocolVersion}, server ${serverInfo.name} ${serverInfo.version}`);
console.log(`tools/list -> ${(await client.listTools()).map((tool) => tool.name).join(", ")}`);
console.log(`tools/call add {"a":2,"b":40} -> ${firstText(await client.callTool("add", { a: 2, b: 40 }))}`);
// A tool that runs and fails answers with isError: true, not with a JSON-RPC error.
const refused = await client.callTool("createFile", { path: "../outside.txt", content: "x" });
console.log(`tools/call createFile ../outside.txt -> isError ${refused.isError}: ${firstText(refused)}`);
try {
  await client.callTool("no_such_tool");
} catch (error) {
  if (!(error instanceof JsonRpcError)) throw error;
  console.log(`tools/call no_such_tool -> JsonRpcError ${error.code}: ${error.message}`);
}
await client.close();
//#endregion

//#region everything
console.log("\n== @modelcontextprotocol/server-everything");
const handshake = await reference.connect();
console.log(`initialize -> protocolVersion ${handshake.protocolVersion}, server ${handshake.serverInfo.name}`);
console.log(`tools/list -> ${(await reference.listTools()).length} tools`);
console.log(
  `tools/call echo {"message":"héllo"} -> ${firstText(await reference.callTool("echo", { message: "héllo" }))}`,
);
await reference.close();
//#endregion

console.log("\n== a server that writes 20 MiB to stdout without a newline");
console.log(await flooding);
