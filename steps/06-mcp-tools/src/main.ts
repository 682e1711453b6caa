// Demo: tools/list and tools/call on the wire, driven by the JSON-RPC client, every line printed as it passes.
// A tool that runs and fails answers with isError: true; a call the server cannot route is a JSON-RPC error.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Connection } from "./connection.ts";

const sandbox = mkdtempSync(path.join(tmpdir(), "learn-mcp-mcp-tools-"));
process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));

//#region session
const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, sandbox], {
  stdio: ["pipe", "pipe", "ignore"],
});
const connection = new Connection(child.stdin, child.stdout, {
  trace: (direction, line) => console.log(`${direction} ${line}`),
});
// Errors are already on the wire above; the demo only waits for them.
const settled = (request: Promise<unknown>) => request.catch(() => undefined);
const call = (name: string, args: unknown) => settled(connection.request("tools/call", { name, arguments: args }));

await connection.request("initialize", {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "demo", version: "0.6.0" },
});
connection.notify("notifications/initialized");
//#endregion

//#region calls
console.log("\n# tools/list: each tool's name, description and inputSchema");
await connection.request("tools/list");

console.log("\n# tools/call: results, and tools that run and fail (isError: true)");
await call("add", { a: 2, b: 40 });
await call("echo", { message: "héllo" });
await call("createFile", { path: "notes.txt", content: "hello\n" });
await call("createFile", { path: "../outside.txt", content: "x" });
await call("add", { a: "2", b: 40 });
await call("add", { a: 2, b: 40, c: 1 });

console.log("\n# Calls the server cannot route are JSON-RPC errors");
await call("multiply", { a: 2, b: 3 });
await call("add", [2, 40]);
//#endregion

child.stdin.end();
