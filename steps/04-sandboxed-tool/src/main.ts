// Demo: the JSON-RPC client calls createFile on a server whose sandbox holds planted traps.
// Each call prints its path and what came back; the outside file is checked at the end, and the folders are removed.
import { spawn, spawnSync } from "node:child_process";
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Connection } from "./connection.ts";

//#region traps
// base/sandbox is served; base/outside/secret.txt must never change.
const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-sandboxed-tool-"));
process.on("exit", () => rmSync(base, { recursive: true, force: true }));
const sandbox = path.join(base, "sandbox");
const secret = path.join(base, "outside", "secret.txt");
mkdirSync(path.dirname(secret), { recursive: true });
mkdirSync(sandbox);
writeFileSync(secret, "outside the sandbox\n");
symlinkSync("../outside", path.join(sandbox, "escape"));
symlinkSync("../outside/secret.txt", path.join(sandbox, "link.txt"));
linkSync(secret, path.join(sandbox, "hard.txt"));
spawnSync("mkfifo", [path.join(sandbox, "pipe")]);
//#endregion

function describe(name: string): string {
  const entry = lstatSync(path.join(sandbox, name));
  if (entry.isSymbolicLink()) return `${name} -> ${readlinkSync(path.join(sandbox, name))}`;
  if (entry.isFIFO()) return `${name} (a FIFO)`;
  return entry.nlink > 1 ? `${name} (a hard link to outside/secret.txt)` : name;
}
console.log(`sandbox: ${readdirSync(sandbox).sort().map(describe).join(", ")}`);

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, sandbox], {
  stdio: ["pipe", "pipe", "ignore"],
});
const connection = new Connection(child.stdin, child.stdout);

//#region calls
async function createFile(filePath: string, content = "written by the demo\n"): Promise<void> {
  try {
    const result = await connection.request("createFile", { path: filePath, content });
    console.log(`createFile ${JSON.stringify(filePath)} -> ${JSON.stringify(result)}`);
  } catch (error) {
    console.log(`createFile ${JSON.stringify(filePath)} -> error: ${(error as Error).message}`);
  }
}

const paths = ["notes.txt", "docs/readme.md", "../outside/secret.txt", "/etc/motd", "escape/secret.txt", "link.txt"];
for (const filePath of [...paths, "pipe", "hard.txt", ".", "docs/", "bell\u0007.txt"]) await createFile(filePath);
//#endregion

child.stdin.end();
console.log(`\noutside/secret.txt still reads: ${JSON.stringify(readFileSync(secret, "utf8"))}`);
console.log(`hard.txt now reads: ${JSON.stringify(readFileSync(path.join(sandbox, "hard.txt"), "utf8"))}`);

//#region missing-folder
const missing = spawnSync(process.execPath, [
  "--import",
  import.meta.resolve("tsx"),
  serverPath,
  path.join(base, "nowhere"),
]);
console.log(
  `\nserver.ts <a folder that does not exist> -> exit ${missing.status}: ${missing.stderr.toString().trim()}`,
);
//#endregion
