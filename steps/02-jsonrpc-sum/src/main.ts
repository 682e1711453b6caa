// Step 02 demo: a JSON-RPC server in a child process, first through the client, then line by line.
// Every line is printed as sent (->) and as received (<-): the wire is the lesson.
import { once } from "node:events";
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { JsonRpcClient } from "./client.ts";
import { spawnServer, Wire } from "./wire.ts";

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const sandbox = await mkdtemp(path.join(tmpdir(), "learn-mcp-02-"));

//#region in-flight
console.log("# Three requests in flight, answered out of order, matched by id");
const child = spawnServer(serverPath, [sandbox]);
child.stderr.resume();
// Answers are listed once all are in: they may reach us in one chunk or several, and the listing stays the same.
const received: string[] = [];
const client = new JsonRpcClient(child.stdin, child.stdout, (direction, line) =>
  direction === "->" ? console.log(`-> ${line}`) : received.push(`<- ${line}`),
);
// One write for all three, so the server reads them together whatever the OS does with the pipe.
child.stdin.cork();
const created = client.request("createFile", { path: "hello.txt", content: "hello\n" });
const total = client.request("sum", { numbers: [1, 2, 3] }, "sum-a");
const none = client.request("sum", { numbers: [] });
child.stdin.uncork();
await Promise.all([created, total, none]);
console.log(received.join("\n"));
console.log(`id 0       resolved with ${JSON.stringify(await created)}`);
console.log(`id "sum-a" resolved with ${JSON.stringify(await total)}`);
console.log(`id 1       resolved with ${JSON.stringify(await none)}`);
child.stdin.end();
await once(child, "close");
//#endregion

//#region by-hand
const wire = new Wire(serverPath, [sandbox]);

async function show(line: string, replies = 1): Promise<void> {
  console.log(`-> ${line}`);
  wire.send(line);
  for (let i = 0; i < replies; i++) console.log(`<- ${await wire.nextLine()}`);
}
//#endregion

console.log("\n# A notification gets no reply: the next line answers the request after it");
await show('{"jsonrpc":"2.0","method":"sum","params":{"numbers":[5]}}', 0);
await show('{"jsonrpc":"2.0","id":7,"method":"sum","params":{"numbers":[5,6]}}');

console.log("\n# Each malformed message gets its error, and the server keeps serving");
await show('{"jsonrpc":"2.0","id":8,"method":"sum"');
await show('"hello"');
await show('{"jsonrpc":"1.0","id":9,"method":"sum"}');
await show('{"jsonrpc":"2.0","id":{"n":10},"method":"sum"}');
await show('{"jsonrpc":"2.0","id":11,"method":42}');
await show('{"jsonrpc":"2.0","id":12,"method":"product","params":{"numbers":[2,3]}}');
await show('{"jsonrpc":"2.0","id":13,"method":"sum","params":{"numbers":["1","2"]}}');

console.log("\n# A batch gets one array back; the notification in it is left out");
await show('[{"jsonrpc":"2.0","id":14,"method":"sum","params":{"numbers":[1,1]}},{"jsonrpc":"2.0","method":"sum"},42]');
await show("[]");

console.log("\n# createFile writes inside the sandbox and nowhere else");
await symlink(tmpdir(), path.join(sandbox, "escape"));
await show('{"jsonrpc":"2.0","id":20,"method":"createFile","params":{"path":"notes.txt","content":"café\\n"}}');
await show('{"jsonrpc":"2.0","id":21,"method":"createFile","params":{"path":"../outside.txt","content":"x"}}');
await show('{"jsonrpc":"2.0","id":22,"method":"createFile","params":{"path":"/etc/motd","content":"x"}}');
await show('{"jsonrpc":"2.0","id":23,"method":"createFile","params":{"path":"escape/outside.txt","content":"x"}}');
await show('{"jsonrpc":"2.0","id":24,"method":"createFile","params":{"path":"hello.txt/inner.txt","content":"x"}}');

const code = await wire.close();
console.log(`\nserver exited with code ${code}; its stderr:\n${wire.stderr.trimEnd()}`);
await rm(sandbox, { recursive: true, force: true });
