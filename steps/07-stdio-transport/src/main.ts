// Demo: the client's stdio transport, with a scripted server: a server that dies while two requests wait, then a
// wrapper that ignores SIGTERM, as a launcher such as npx may, which close() removes with the server it started.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { McpClient } from "./client.ts";

const fakeServer = fileURLToPath(new URL("./fixtures/fake-server.mjs", import.meta.url));
const wrapper = fileURLToPath(new URL("./fixtures/wrapper.mjs", import.meta.url));
// From ps, as Linux and macOS both have it; a zombie (state Z) has exited and only waits to be reaped.
const running = (pid: number | undefined) => {
  const state = spawnSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).stdout.trim();
  return state === "" || state.startsWith("Z") ? "gone" : "running";
};

//#region death
console.log("== a server that dies while two requests wait for it");
const dying = new McpClient(process.execPath, [fakeServer]);
const call = (name: string, args: object) => dying.connection.request("tools/call", { name, arguments: args });
const outcome = (request: Promise<unknown>) => request.then(() => "answered").catch((error: Error) => error.message);
const started = Date.now();
const slow = outcome(call("sleep", { ms: 4000 }));
const fatal = await outcome(call("die", { code: 3, why: "disk on fire" }));
console.log(`tools/call die {"code":3,"why":"disk on fire"} -> ${fatal}`);
const late = Date.now() - started < 4000 ? "long before its sleep would have ended" : "only when its sleep ended";
console.log(`tools/call sleep {"ms":4000} -> ${(await slow) === fatal ? "the same error" : await slow}, ${late}`);
await dying.close();
//#endregion

//#region group
console.log("\n== a wrapper that ignores SIGTERM, and the server it started");
const wrapped = new McpClient(process.execPath, [wrapper]);
const answer = await wrapped.connection.request("initialize", { protocolVersion: "2025-11-25" });
const server = Number((answer as { serverInfo: { version: string } }).serverInfo.version); // the fake server's pid
console.log(`initialize -> answered; the wrapper is ${running(wrapped.pid)}, its server ${running(server)}`);
await wrapped.close(300);
console.log(`close() -> the wrapper is ${running(wrapped.pid)}, its server ${running(server)}`);
//#endregion
