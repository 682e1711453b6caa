// Demo: the hand-written command-line client, unchanged, drives this step's SDK server.
// Then the same bad calls go to both servers, so the two wordings of one refusal can be read side by side.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { roleProgram } from "./roles.ts";

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-sdk-server-"));
process.on("exit", () => rmSync(base, { recursive: true, force: true }));
const sandbox = path.join(base, "sandbox");
mkdirSync(sandbox);

//#region cli
const tsx = import.meta.resolve("tsx");
const cli = roleProgram("hand-written CLI");
const servers = {
  "hand-written": roleProgram("hand-written server"),
  SDK: fileURLToPath(new URL("./server.ts", import.meta.url)),
};

/** Runs `cli.ts <args> -- <server> <sandbox>` to its end; on a timeout, SIGINT lets the CLI stop its server first. */
async function runCli(server: string, args: string[]): Promise<{ status: number; output: string }> {
  const serverCommand = [process.execPath, "--import", tsx, server, sandbox];
  const argv = ["--import", tsx, cli, ...args, "--", ...serverCommand];
  const child = spawn(process.execPath, argv, {
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 60_000,
    killSignal: "SIGINT",
  });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
  const [status] = await once(child, "close");
  return { status, output: output.trimEnd() };
}
//#endregion

//#region same-client
// Each run starts a CLI and its server; every run starts at once, and the answers are printed in order.
console.log("The hand-written CLI against the SDK server:");
const calls = [["tools"], ["call", "createFile", '{"path":"notes.txt","content":"Written through the SDK.\\n"}']];
const badCalls = [
  ["call", "add", '{"a":2,"b":"40"}'],
  ["call", "multiply", '{"a":2,"b":40}'],
];
const names = Object.keys(servers) as (keyof typeof servers)[];
const answers = Promise.all(calls.map((args) => runCli(servers.SDK, args)));
const refusals = Promise.all(badCalls.map((args) => Promise.all(names.map((name) => runCli(servers[name], args)))));
(await answers).forEach(({ status, output }, i) => {
  console.log(`$ cli.ts ${calls[i]!.join(" ")}\n${output}${status === 0 ? "" : `  (exit ${status})`}`);
});
//#endregion

//#region two-wordings
console.log("\nThe same bad calls to both servers:");
(await refusals).forEach((answers, i) => {
  console.log(`$ cli.ts ${badCalls[i]!.join(" ")}`);
  names.forEach((name, j) => {
    const { status, output } = answers[j]!;
    console.log(`  ${name.padEnd(12)}  exit ${status}  ${output}`);
  });
});
//#endregion
