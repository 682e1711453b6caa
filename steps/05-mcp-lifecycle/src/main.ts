// Demo: the MCP handshake on the wire, driven by the JSON-RPC client, every line printed as it passes.
// Before initialize only ping is answered; initialize negotiates a version; then the methods work.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Connection } from "./connection.ts";

const sandbox = mkdtempSync(path.join(tmpdir(), "learn-mcp-mcp-lifecycle-"));
process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));

//#region session
/** Starts a server and a client that prints every line; `send` writes a raw line and waits for the next one back. */
function startSession(): { connection: Connection; send: (line: string) => Promise<void>; end: () => void } {
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, sandbox], {
    stdio: ["pipe", "pipe", "ignore"],
  });
  let received: (() => void) | undefined;
  const connection = new Connection(child.stdin, child.stdout, {
    trace: (direction, line) => {
      console.log(`${direction} ${line}`);
      if (direction === "<-") received?.();
    },
    warn: () => {}, // An answer to a raw line matches no request of the client's; it is printed above, and that is all.
  });
  const send = (line: string) => {
    console.log(`-> ${line}`);
    child.stdin.write(line + "\n");
    return new Promise<void>((resolve) => (received = resolve));
  };
  return { connection, send, end: () => child.stdin.end() };
}

// Errors are already on the wire above; the demo only waits for them.
const settled = (request: Promise<unknown>) => request.catch(() => undefined);
const initialize = (protocolVersion: string) => ({
  protocolVersion,
  capabilities: {},
  clientInfo: { name: "learn-mcp-demo", version: "0.5.0" },
});
//#endregion

//#region handshake
console.log("# Before initialize: ping is answered, anything else gets an error at once");
const first = startSession();
await settled(first.connection.request("sum", { numbers: [1, 2] }));
await settled(first.connection.request("ping"));
await settled(first.connection.request("server/discover"));

console.log("\n# The handshake: initialize, its answer, then the initialized notification (no reply)");
await settled(first.connection.request("initialize", initialize("2025-11-25")));
first.connection.notify("notifications/initialized");
await settled(first.connection.request("sum", { numbers: [1, 2] }));
await settled(first.connection.request("initialize", initialize("2025-11-25")));
//#endregion

console.log("\n# Batches belong to 2025-03-26 only; in 2025-11-25 an array is refused as a whole");
await first.send('[{"jsonrpc":"2.0","id":"a","method":"ping"}]');
first.end();

//#region negotiation
console.log(
  "\n# Negotiation: a version the server knows is answered as asked; an unknown one gets the server's latest",
);
for (const version of ["2024-11-05", "2099-01-01"]) {
  const session = startSession();
  await settled(session.connection.request("initialize", initialize(version)));
  session.end();
}
//#endregion

console.log("\n# A session on 2025-03-26 may send a batch, and gets one array back");
const batches = startSession();
await settled(batches.connection.request("initialize", initialize("2025-03-26")));
batches.connection.notify("notifications/initialized");
await batches.send(
  '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"sum","params":{"numbers":[2,3]}}]',
);
batches.end();
