// `list-servers.ts [--project DIR] [--home DIR]`: the servers a host would start for a project, and from which scope,
// without starting any. The home folder is read only when named: nothing here touches the real one by default.
import { existsSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig, type ServerConfig } from "./config.ts";

const USAGE = "usage: list-servers.ts [--project DIR] [--home DIR]";

/** Prints the error and the usage line, and exits 64 (a usage error). */
function fail(message: string): never {
  console.error(`error: ${message}\n${USAGE}`);
  process.exit(64);
}

/** The --project and --home folders from the command line, each checked to be a folder. */
function folders() {
  let values;
  try {
    ({ values } = parseArgs({ options: { project: { type: "string" }, home: { type: "string" } } }));
  } catch (error) {
    fail((error as Error).message);
  }
  const { project = process.cwd(), home } = values;
  for (const [flag, folder] of [
    ["--project", project],
    ["--home", home],
  ] as const) {
    if (folder !== undefined && !(existsSync(folder) && statSync(folder).isDirectory()))
      fail(`${flag} ${folder} is not a folder`);
  }
  return { project, home };
}

//#region show
// A line per server: its name, the scope it came from, and what a host would run or reach, with each value taken
// from the environment left as ${NAME}. Headers and env values may hold credentials: only env's names are shown.
function describe({ name, scope, entry, overrides }: ServerConfig): string {
  const what =
    entry.type === "http"
      ? `http   ${entry.shown} (remote servers are not supported yet; skipped)`
      : `stdio  ` +
        `${entry.shown}${Object.keys(entry.env).length > 0 ? `  env: ${Object.keys(entry.env).join(", ")}` : ""}`;
  const over = overrides.length > 0 ? `  (wins over ${overrides.join(", ")})` : "";
  return `${name.padEnd(8)} ${scope.padEnd(8)} ${what}${over}`;
}
//#endregion

const { project, home } = folders();
const { servers, problems, notes } = loadConfig({ project, home });
if (home === undefined) console.log("(no --home: the user and local scopes are not read)");
for (const server of servers) console.log(describe(server));
if (servers.length === 0) console.log("(no servers configured)");
for (const problem of problems) console.error(`problem: ${problem}`);
for (const note of notes) console.error(`note: ${note}`);
