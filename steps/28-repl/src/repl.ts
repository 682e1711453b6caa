// `repl.ts [--project DIR] [--home DIR] [--timeout MS]`: the host's /mcp commands, one line at a time from stdin,
// a terminal or a pipe. Every error is printed and the next line is read; the end of stdin closes every server.
import { existsSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { loadConfig } from "./config.ts";
import { DEFAULT_TIMEOUT_MS, McpManager, type ServerStatus } from "./manager.ts";
import { printable } from "./printable.ts";
import { exitOnSignals } from "./signals.ts";
import { leftInGroups } from "./groups.ts";

const USAGE = "usage: repl.ts [--project DIR] [--home DIR] [--timeout MS]";
const HELP = ["/mcp", "/mcp tools [server]", "/mcp call <server> <tool> <json arguments>", "/mcp reconnect <server>"];

/** Prints the error and the usage line, and exits 64 (a usage error). */
function fail(message: string): never {
  console.error(`error: ${message}\n${USAGE}`);
  process.exit(64);
}

/** The --project, --home and --timeout options from the command line, each checked. */
function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { project: { type: "string" }, home: { type: "string" }, timeout: { type: "string" } },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const { project = process.cwd(), home, timeout = String(DEFAULT_TIMEOUT_MS) } = values;
  for (const [flag, folder] of [
    ["--project", project],
    ["--home", home],
  ] as const) {
    if (folder !== undefined && !(existsSync(folder) && statSync(folder).isDirectory()))
      fail(`${flag} ${folder} is not a folder`);
  }
  const timeoutMs = Number(timeout);
  if (!/^\d+$/.test(timeout) || timeoutMs < 1 || timeoutMs > 2 ** 31 - 1)
    fail(`bad --timeout: ${timeout} (milliseconds, 1 to ${2 ** 31 - 1})`);
  return { folders: { project, home }, timeoutMs };
}

//#region commands
// What a result holds, as text: text items as they are, anything else named by its type.
const shown = (result: CallToolResult) =>
  result.content.map((item) => (item.type === "text" ? item.text : `[${item.type}]`)).join("\n");

const statusLine = ({ name, state, tools, lastError }: ServerStatus) =>
  `${name.padEnd(12)} ${state.padEnd(12)} ${String(tools).padStart(2)} tools${lastError ? `  ${lastError}` : ""}`;

function tools(manager: McpManager, server?: string): string {
  if (server !== undefined && !manager.status().some((s) => s.name === server))
    throw new Error(`no server "${server}" is configured`);
  const offered = new Map(manager.tools().map((tool) => [tool.name, tool]));
  const lines = manager
    .routes()
    .filter((route) => offered.has(route.name) && (server === undefined || route.server === server));
  const width = Math.max(0, ...lines.map(({ name }) => name.length));
  return (
    lines
      .map(({ name }) => `${name.padEnd(width)}  ${offered.get(name)!.description?.split("\n")[0] ?? ""}`.trimEnd())
      .join("\n") || "no tools"
  );
}

async function call(manager: McpManager, server: string, tool: string, json: string): Promise<string> {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    throw new Error(`the arguments are not JSON: ${json}`);
  }
  if (args === null || typeof args !== "object" || Array.isArray(args))
    throw new Error("the arguments must be a JSON object");
  const route = manager.routes().find((r) => r.server === server && r.tool === tool);
  if (route === undefined) throw new Error(`server "${server}" offers no tool "${tool}"`);
  const result = await manager.callTool(route.name, args as Record<string, unknown>);
  return result.isError ? `tool error: ${shown(result)}` : shown(result);
}

/** The answer to one line: what to print. Throws with a message to print for anything wrong. */
async function answer(manager: McpManager, line: string): Promise<string> {
  // Four words, then the arguments as typed: JSON keeps its own spaces.
  const [, command, sub, server, tool, json] =
    /^(\S+)(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(\S+))?(?:\s+(.*))?$/.exec(line) ?? [];
  if (command === "/help" && sub === undefined) return HELP.join("\n");
  if (command !== "/mcp") throw new Error(`unknown command: ${line}; try /help`);
  if (sub === undefined) return manager.status().map(statusLine).join("\n") || "no servers configured";
  if (sub === "tools" && tool === undefined) return tools(manager, server);
  if (sub === "call" && server && tool) return call(manager, server, tool, json ?? "{}");
  if (sub === "reconnect" && server && tool === undefined) return statusLine(await manager.reconnect(server));
  throw new Error(`bad /mcp command: ${line}; try /help`);
}
//#endregion

//#region loop
const { folders, timeoutMs } = options();
const { servers, problems, notes } = loadConfig(folders);
for (const line of [...problems, ...notes]) console.error(printable(`config: ${line}`));
const manager = new McpManager(servers, { timeoutMs, warn: (line) => console.error(`warning: ${line}`) });
// The servers lead process groups of their own, so Ctrl-C in a terminal does not reach them: stop them here. A second
// Ctrl-C while they stop changes nothing; one that ignores SIGTERM is SIGKILLed, and the line says so.
exitOnSignals().push(() => manager.closeAll());
await manager.connectAll();
console.log(`${servers.length} servers configured; /help lists the commands`);
// One line at a time, each answered before the next is read; from a pipe, each line is echoed before its answer.
for await (const raw of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const line = raw.trim();
  if (line === "") continue;
  if (!process.stdin.isTTY) console.log(`> ${line}`);
  console.log(printable(await answer(manager, line).catch((error: Error) => `error: ${error.message}`)));
}
const groups = manager.processGroups();
await manager.closeAll();
const left = await leftInGroups(groups);
console.log(
  left.length === 0
    ? "stdin ended: every server closed, no process left"
    : `stdin ended, but ${left.length} processes are left: ${left.join(", ")}`,
);
//#endregion
