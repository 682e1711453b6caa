// Demo: the command-line client run as a user runs it, once per outcome, each with its exit code.
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
const sandbox = await mkdtemp(join(tmpdir(), "learn-mcp-cli-"));
process.on("exit", () => rmSync(sandbox, { recursive: true, force: true }));

//#region run-cli
const server = [process.execPath, "--import", tsx, here("./server.ts"), sandbox];

/** Starts `cli.ts` with `args`; resolves with what a user would see: its stdout, its stderr and its exit code. */
async function cli(args: string[], serverCommand = server): Promise<string> {
  const child = spawn(process.execPath, ["--import", tsx, here("./cli.ts"), ...args, "--", ...serverCommand]);
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk));
  const [code] = await once(child, "close");
  const stderr = output.stderr && output.stderr.trimEnd().replace(/^/gm, "stderr: ");
  return [output.stdout.trimEnd(), stderr, `(exit code ${code})\n`].filter(Boolean).join("\n");
}
//#endregion

//#region outcomes
// The runs are independent, so they all start at once; each is shown, in this order, as a user would type it.
const never = [process.execPath, "-e", "process.stdin.resume()"];
const runs: [shown: string, output: Promise<string>][] = [
  ["tools -- <this step's server>", cli(["tools"])],
  [`call add '{"a":2,"b":40}' -- <this step's server>`, cli(["call", "add", '{"a":2,"b":40}'])],
  [
    `call createFile '{"path":"../x","content":""}' -- <this step's server>`,
    cli(["call", "createFile", '{"path":"../x","content":""}']),
  ],
  ["call multiply '{}' -- <this step's server>", cli(["call", "multiply", "{}"])],
  [
    "--timeout 500 call add '{}' -- <a server that never answers>",
    cli(["--timeout", "500", "call", "add", "{}"], never),
  ],
  ["call add 'not json' -- <this step's server>", cli(["call", "add", "not json"])],
];
for (const [shown, output] of runs) {
  console.log(`$ cli.ts ${shown}`);
  console.log(await output);
}
//#endregion
