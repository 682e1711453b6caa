// Demo: createFile puts a file in a workspace with traps, and the two new tools read and list it.
// One connection, typed by hand in the 2026-07-28 era: no handshake is needed.
import { spawn, spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

//#region traps
// base/workspace is served; base/outside/secret.txt must never be read or changed.
const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-workspace-"));
process.on("exit", () => rmSync(base, { recursive: true, force: true }));
const workspace = path.join(base, "workspace");
const secret = path.join(base, "outside", "secret.txt");
const inWorkspace = (name: string) => path.join(workspace, name);
mkdirSync(path.dirname(secret), { recursive: true });
mkdirSync(inWorkspace("docs"), { recursive: true });
writeFileSync(secret, "TOP SECRET\n");
symlinkSync("../outside", inWorkspace("escape"));
linkSync(secret, inWorkspace("hard.txt"));
spawnSync("mkfifo", [inWorkspace("pipe")]);
console.log("workspace: docs/, escape -> ../outside, hard.txt (a second name of outside/secret.txt), pipe (a FIFO)");
//#endregion

//#region connection
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const server = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, workspace], {
  stdio: ["pipe", "pipe", "ignore"],
});
const answers = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
let nextId = 1;

/** One tools/call at a time, so the next line out is its answer: its text, marked when it is an error. */
async function call(name: string, args: Record<string, string>): Promise<string> {
  const request = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name, arguments: args, _meta: META },
  };
  server.stdin.write(JSON.stringify(request) + "\n");
  const { result } = JSON.parse((await answers.next()).value);
  return `${result.isError ? "isError: " : ""}${result.content[0].text}`;
}
//#endregion

//#region calls
try {
  for (const [name, args] of [
    ["createFile", { path: "docs/todo.md", content: "- close the race\n" }],
    ["read_file", { path: "docs/todo.md" }],
    ["list_files", { path: "." }],
    ...["escape/secret.txt", "hard.txt", "pipe", "."].map((path) => ["read_file", { path }] as const),
  ] as const) {
    console.log(`\n${name} ${JSON.stringify(args)}\n  ${(await call(name, args)).trimEnd().replaceAll("\n", "\n  ")}`);
  }
} finally {
  server.stdin.end();
}
//#endregion
