// Demo: a project folder whose .mcp.json lists servers, some entries broken, read by loadConfig as a host would read
// it: each server as checked, then a line for each problem.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "./config.ts";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-host-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const project = path.join(root, "project");

function write(file: string, json: object) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`wrote <demo>/${path.relative(root, file)}`);
}

//#region files
// .mcp.json at the project root, meant to be committed with the project.
write(path.join(project, ".mcp.json"), {
  mcpServers: {
    demo: { command: "node", args: ["demo.js", "--from-project"] },
    docs: { type: "http", url: "https://docs.example.com/mcp" },
    broken: { args: ["--verbose"] },
    chat: { type: "websocket", url: "ws://127.0.0.1:9000" },
  },
});
//#endregion

//#region list
console.log("\nloadConfig({ project: <demo>/project }):");
const { servers, problems } = loadConfig({ project });
for (const { name, entry } of servers) console.log(`${name.padEnd(8)} ${JSON.stringify(entry)}`);
for (const problem of problems) console.log(`problem: ${problem.replaceAll(root, "<demo>")}`);
//#endregion
