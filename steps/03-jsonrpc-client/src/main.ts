// Demo: a JSON-RPC client keeps several requests in flight and pairs each answer with its request by id.
// Lines on the wire are printed as they pass (->, <-); what each request resolved with is printed as it settles.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { Connection } from "./connection.ts";
import { JsonRpcError } from "./jsonrpc.ts";

//#region connect
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
// The server's log is not part of this lesson, so its stderr is not even opened.
const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath], {
  stdio: ["pipe", "pipe", "ignore"],
});
// While `held` is set, received lines wait there: answers that share one chunk of the pipe are all read before any
// request settles, so printing them at once would make the order of the printout depend on the chunking.
let held: string[] | undefined;
const connection = new Connection(child.stdin, child.stdout, {
  trace: (direction, line) =>
    direction === "<-" && held ? held.push(`<- ${line}`) : console.log(`${direction} ${line}`),
  warn: (text) => console.log(`[client] ${text}`),
});
//#endregion

/** Prints how a request settled: its result, or why it failed. */
const settle = (label: string, request: Promise<unknown>) =>
  request.then(
    (result) => console.log(`   ${label} resolved with ${JSON.stringify(result)}`),
    (error: Error) => {
      const kind = error instanceof JsonRpcError ? `JsonRpcError ${error.code}` : "Error";
      console.log(`   ${label} rejected: ${kind}: ${error.message}`);
    },
  );

//#region in-flight
console.log("# Three requests in flight: the slow one is answered last, and each answer finds its request by id");
held = [];
const results = await Promise.all([
  connection.request("sleep", { ms: 200 }),
  connection.request("sum", { numbers: [1, 2] }),
  connection.request("sum", { numbers: [3, 4] }),
]);
console.log(held.join("\n"));
held = undefined;
console.log(`   the three requests resolved with ${JSON.stringify(results)}, each with its own answer`);
//#endregion

//#region errors
console.log("\n# An error answer rejects its request, with the server's code and message");
await settle("product", connection.request("product", { numbers: [2, 3] }));

console.log("\n# A request with no answer in time fails on its own; the late answer matches nothing");
await settle("sleep 300, timeout 100", connection.request("sleep", { ms: 300 }, 100));
await sleep(400);
//#endregion

//#region server-gone
console.log("\n# When the server goes, every request still waiting fails at once, not at its timeout");
const waiting = settle("sleep 5000", connection.request("sleep", { ms: 5000 }));
child.kill();
await waiting;
await settle("sum after the end", connection.request("sum", { numbers: [1] }));
//#endregion
