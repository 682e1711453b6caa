// Demo: a project with the hand-written server and one that cannot start, and the REPL driven through a pipe
// by a fixed list of commands, good and bad; the REPL exits when the list ends.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { roleProgram } from "./roles.ts";
import { exitOnSignals } from "./signals.ts";

// Removed on every exit a process can see: the end, an error, and a signal (exitOnSignals turns it into an exit).
exitOnSignals();
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-repl-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const [project, sandbox] = [path.join(root, "project"), path.join(root, "sandbox")];
mkdirSync(project);
mkdirSync(sandbox);
const server = roleProgram("hand-written server");
writeFileSync(
  path.join(project, ".mcp.json"),
  JSON.stringify({
    mcpServers: {
      demo: { command: process.execPath, args: ["--import", import.meta.resolve("tsx"), server, sandbox] },
      "needs-key": { command: "node", args: ["-e", "console.error('missing API key'); process.exit(3)"] },
    },
  }),
);

//#region script
const script = [
  "/mcp",
  "/mcp tools demo",
  '/mcp call demo add {"a":2,"b":40}',
  '/mcp call demo add {"a":2}',
  '/mcp call demo createFile {"path":"../outside.txt","content":"x"}',
  "/mcp call demo multiply {}",
  "/mcp call demo add {a:2}",
  "/mcp reconnect needs-key",
  "/mcp tools nowhere",
  "/mcp list",
  "/help",
];
//#endregion

const repl = fileURLToPath(new URL("./repl.ts", import.meta.url));
const args = ["--import", import.meta.resolve("tsx"), repl, "--project", project, "--timeout", "10000"];
console.log(`$ repl.ts --project <demo>/project --timeout 10000 < script (${script.length} lines)`);
const run = spawnSync(process.execPath, args, { input: `${script.join("\n")}\n`, encoding: "utf8" });
process.stdout.write(run.stdout.replaceAll(root, "<demo>"));
// The two servers write to stderr at the same time: their lines are grouped by server, each in its order.
const stderr = run.stderr.replaceAll(root, "<demo>").trimEnd().split("\n");
const source = (line: string) => line.slice(0, line.indexOf("]") + 1);
console.log(
  `\nthe REPL's stderr, grouped by server:\n  ` +
    `${stderr.sort((a, b) => source(a).localeCompare(source(b))).join("\n  ")}`,
);
console.log(`\nexit status ${run.status}`);
