// Demo: the file tools on a workspace with traps, then reads through a folder that another process keeps
// swapping for a link to outside. One connection, typed by hand in the 2026-07-28 era: no handshake is needed.
import { spawn, spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

//#region race
// Another process renames "swap" between a real folder and a link to outside, as fast as it can.
async function race(): Promise<string> {
  mkdirSync(inWorkspace("swap"));
  writeFileSync(inWorkspace("swap/secret.txt"), "the inside copy\n");
  symlinkSync("../outside", inWorkspace("swap-link"));
  const swap = fileURLToPath(new URL("./fixtures/swap.mjs", import.meta.url));
  const swapper = spawn(process.execPath, [swap, "swap"], { cwd: workspace, stdio: ["ignore", "pipe", "ignore"] });
  try {
    await new Promise((resolve) => swapper.stdout.once("data", resolve));
    const seen = { inside: 0, refused: 0, secret: 0 };
    // Until both states were seen 100 times, so the race really ran; the cap stops a stalled machine from looping.
    for (let reads = 0; Math.min(seen.inside, seen.refused) < 100 && reads < 50_000; reads++) {
      const text = await call("read_file", { path: "swap/secret.txt" });
      seen[text.includes("TOP SECRET") ? "secret" : text.startsWith("isError") ? "refused" : "inside"]++;
    }
    const ran =
      Math.min(seen.inside, seen.refused) >= 100 ? "the inside copy and a refusal, 100 times each" : "too few of each";
    return `reads of "swap/secret.txt" while another process swaps it: ${ran}; the secret ${seen.secret} times`;
  } finally {
    swapper.kill();
  }
}
//#endregion

//#region calls
try {
  for (const [name, args] of [
    ["write_file", { path: "docs/todo.md", content: "- close the race\n" }],
    ["read_file", { path: "docs/todo.md" }],
    ["list_files", { path: "." }],
    ...["escape/secret.txt", "hard.txt", "pipe", "."].map((path) => ["read_file", { path }] as const),
    ["write_file", { path: "hard.txt", content: "replaced\n" }],
  ] as const) {
    console.log(`\n${name} ${JSON.stringify(args)}\n  ${(await call(name, args)).trimEnd().replaceAll("\n", "\n  ")}`);
  }
  console.log(`\noutside/secret.txt still reads: ${JSON.stringify(readFileSync(secret, "utf8"))}`);
  console.log(`\n${await race()}`);
} finally {
  server.stdin.end();
}
//#endregion
