// Step 08 demo: the command-line client run as a user runs it, once per outcome, each with its exit code.
// Every run starts its own server on one temporary sandbox, and every run stops it before it exits.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const tsx = import.meta.resolve("tsx");
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const sandbox = await mkdtemp(join(tmpdir(), "learn-mcp-08-"));
process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));

//#region run-cli
const server = [process.execPath, "--import", tsx, here("./server.ts"), sandbox];

/** Runs `cli.ts` with `args`, shows the command as a user would type it, then its stdout, its stderr and exit code. */
async function cli(shown: string, args: string[], serverCommand = server): Promise<void> {
  console.log(`$ cli.ts ${shown}`);
  const child = spawn(process.execPath, ["--import", tsx, here("./cli.ts"), ...args, "--", ...serverCommand]);
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk));
  const [code] = await once(child, "close");
  if (output.stdout) console.log(output.stdout.trimEnd());
  if (output.stderr) console.log(output.stderr.trimEnd().replace(/^/gm, "stderr: "));
  console.log(`(exit code ${code})\n`);
}
//#endregion

//#region outcomes
await cli("tools -- <this step's server>", ["tools"]);
await cli(`call add '{"a":2,"b":40}' -- <this step's server>`, ["call", "add", '{"a":2,"b":40}']);
await cli(`call createFile '{"path":"../x","content":""}' -- <this step's server>`, ["call", "createFile", '{"path":"../x","content":""}']);
await cli("call multiply '{}' -- <this step's server>", ["call", "multiply", "{}"]);
await cli("--timeout 500 call add '{}' -- <a server that never answers>", ["--timeout", "500", "call", "add", "{}"], [
  process.execPath,
  "-e",
  "process.stdin.resume()",
]);
await cli("call add 'not json' -- <this step's server>", ["call", "add", "not json"]);
//#endregion
