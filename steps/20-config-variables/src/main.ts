// Demo: a project folder whose .mcp.json takes values from the environment, some entries broken, read by loadConfig
// as a host would read it; then once more with the variable the first reading was missing.
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
// .mcp.json at the project root, meant to be committed, so secrets come from variables.
write(path.join(project, ".mcp.json"), {
  mcpServers: {
    demo: { command: "node", args: ["demo.js", "--from-project"] },
    search: { command: "${SEARCH_BIN:-search-server}", args: ["--region", "${SEARCH_REGION}"] },
    docs: {
      type: "http",
      url: "https://${DOCS_HOST:-docs.example.com}/mcp",
      headers: { Authorization: "Bearer ${DOCS_TOKEN:-}" },
    },
    broken: { args: ["--verbose"] },
    chat: { type: "websocket", url: "ws://127.0.0.1:9000" },
  },
});
//#endregion

//#region list
// Each server as it may be printed: its `shown` form leaves every value from the environment as ${NAME}.
function list(env: NodeJS.ProcessEnv, shown: string) {
  console.log(`\n${shown}loadConfig({ project: <demo>/project }):`);
  const { servers, problems } = loadConfig({ project }, env);
  for (const { name, entry } of servers) console.log(`${name.padEnd(8)} ${entry.type.padEnd(6)} ${entry.shown}`);
  for (const problem of problems) console.log(`problem: ${problem.replaceAll(root, "<demo>")}`);
}

const { SEARCH_REGION: _, ...env } = process.env;
list(env, "");
list({ ...env, SEARCH_REGION: "eu" }, "SEARCH_REGION=eu ");
//#endregion
