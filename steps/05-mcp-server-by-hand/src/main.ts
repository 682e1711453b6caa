// Step 03 demo: an MCP session driven by hand, one raw JSON line at a time, against the real server.
// Every line is printed as sent (->) and as received (<-); very long lines are shortened for the terminal.
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Wire } from "./wire.ts";

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-03-"));

//#region show
const LIMIT = 300;
const shorten = (line: string) => (line.length <= LIMIT ? line : `${line.slice(0, LIMIT)}… (${line.length - LIMIT} more characters)`);

async function show(wire: Wire, line: string, replies = 1): Promise<void> {
  console.log(`-> ${line}`);
  wire.send(line);
  for (let i = 0; i < replies; i++) console.log(`<- ${shorten(await wire.nextLine())}`);
}
//#endregion

const call = (id: number, name: string, args: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

//#region handshake
const wire = new Wire(serverPath, [sandbox]);
console.log("# Before initialize: ping is answered, anything else gets an error at once");
await show(wire, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
await show(wire, '{"jsonrpc":"2.0","id":2,"method":"server/discover"}');
await show(wire, '{"jsonrpc":"2.0","id":3,"method":"ping"}');

console.log("\n# The handshake: initialize, its answer, then the initialized notification (no reply)");
await show(wire, '{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"by-hand","version":"1.0.0"}}}');
await show(wire, '{"jsonrpc":"2.0","method":"notifications/initialized"}', 0);
//#endregion

console.log("\n# Tools: list them, call one, break the schema, call a tool that fails");
await show(wire, '{"jsonrpc":"2.0","id":5,"method":"tools/list"}');
await show(wire, call(6, "add", { a: 2, b: 40 }));
await show(wire, call(7, "add", { a: "2", b: 40 }));
await show(wire, call(8, "add", { a: 2 }));
await show(wire, call(9, "get_current_time", { timeZone: "Mars/Olympus_Mons" }));

console.log("\n# Calls the server cannot route are JSON-RPC errors");
await show(wire, call(10, "multiply", { a: 2, b: 3 }));
await show(wire, call(11, "add", [2, 40]));
await show(wire, '[{"jsonrpc":"2.0","id":12,"method":"ping"}]');

console.log("\n# createFile stays inside the sandbox");
await symlink(tmpdir(), path.join(sandbox, "escape"));
await show(wire, call(13, "createFile", { path: "notes.txt", content: "hello\n" }));
await show(wire, call(14, "createFile", { path: "escape/outside.txt", content: "x" }));
await show(wire, call(15, "createFile", { path: "notes.txt/inner.txt", content: "x" }));
const firstCode = await wire.close();

//#region batch-session
console.log("\n# A second session negotiates 2025-03-26, the one revision with batches");
const old = new Wire(serverPath, [sandbox]);
await show(old, '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"by-hand","version":"1.0.0"}}}');
await show(old, '{"jsonrpc":"2.0","method":"notifications/initialized"}', 0);
await show(old, `[{"jsonrpc":"2.0","id":2,"method":"ping"},${call(3, "echo", { message: "in a batch" })}]`);
//#endregion

const secondCode = await old.close();
console.log(`\nThe servers exited with codes ${firstCode} and ${secondCode}. The first one's stderr:\n${wire.stderr.trimEnd()}`);
await rm(sandbox, { recursive: true, force: true });
