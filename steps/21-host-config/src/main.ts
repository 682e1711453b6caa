// Demo: a home folder and a project folder with servers in all three scopes, some entries broken, listed by
// list-servers.ts as a host would resolve them; then once more with the variable the first run was missing.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-host-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const [home, project] = [path.join(root, "home"), path.join(root, "project")];

function write(file: string, json: object) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`wrote <demo>/${path.relative(root, file)}`);
}

//#region files
// User scope: the top of ~/.claude.json. Local scope: the same file, under the project's real path.
write(path.join(home, ".claude.json"), {
  numStartups: 12,
  mcpServers: { demo: { command: "node", args: ["demo.js", "--from-user"] }, notes: { command: "notes-server" } },
  projects: {
    [project]: {
      mcpServers: { demo: { command: "node", args: ["demo.js", "--from-local"], env: { LOG_LEVEL: "debug" } } },
    },
  },
});
// Project scope: .mcp.json at the project root, meant to be committed, so secrets come from variables.
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
// Where older tutorials put servers: a settings file, which holds permissions and environment, not servers.
write(path.join(project, ".claude", "settings.json"), {
  permissions: { allow: ["Bash(npm test)"] },
  mcpServers: { old: { command: "old-server" } },
});
//#endregion

//#region list
const listServers = fileURLToPath(new URL("./list-servers.ts", import.meta.url));

function list(env: NodeJS.ProcessEnv, shown: string) {
  console.log(`\n$ ${shown}list-servers.ts --project <demo>/project --home <demo>/home`);
  const args = ["--import", import.meta.resolve("tsx"), listServers, "--project", project, "--home", home];
  const run = spawnSync(process.execPath, args, { env, encoding: "utf8" });
  process.stdout.write((run.stdout + run.stderr).replaceAll(root, "<demo>"));
}

const { SEARCH_REGION: _, ...env } = process.env;
list(env, "");
list({ ...env, SEARCH_REGION: "eu" }, "SEARCH_REGION=eu ");
//#endregion
