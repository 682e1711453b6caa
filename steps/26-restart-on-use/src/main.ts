// Demo: a project whose .mcp.json names two tutorial servers, a fixture that adds a tool when asked, a server
// that exits at start, one that never answers and a remote one; the manager starts them all and calls across them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "./config.ts";
import { McpManager } from "./manager.ts";
import { printable } from "./printable.ts";
import { roleProgram } from "./roles.ts";
import { leftInGroups } from "./groups.ts";

// Removed when the demo exits, at its end or on an error.
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-restart-on-use-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const folder = (name: string) => (mkdirSync(path.join(root, name), { recursive: true }), path.join(root, name));

//#region config
// Each tutorial server gets a workspace folder of its own; tsx's loader is named by absolute path, as a host would
// need.
const typescript = (role: string, workspace: string) => ({
  command: process.execPath,
  args: ["--import", import.meta.resolve("tsx"), roleProgram(role), workspace],
});
const fixture = fileURLToPath(new URL("./fixtures/tools.mjs", import.meta.url));
const project = folder("project");
writeFileSync(
  path.join(project, ".mcp.json"),
  JSON.stringify(
    {
      mcpServers: {
        demo: typescript("SDK server, every stdio feature", folder("demo-files")),
        handwritten: typescript("hand-written server", folder("handwritten-files")),
        vault: { command: process.execPath, args: [fixture, "vault", "open"] },
        "needs-key": { command: "node", args: ["-e", "console.error('missing API key'); process.exit(3)"] },
        silent: { command: "node", args: ["-e", "setInterval(() => {}, 1000)"] },
        docs: { type: "http", url: "https://docs.example.com/mcp" },
      },
    },
    null,
    2,
  ),
);
//#endregion

// On a terminal, the seconds left until the timeout; in a pipe, nothing, so that recorded output stays the same.
async function waitingFor(work: Promise<void>, timeoutMs: number): Promise<void> {
  if (!process.stdout.isTTY) return work;
  const until = Date.now() + timeoutMs;
  const draw = () =>
    process.stdout.write(`\rwaiting for the servers: ${Math.max(0, Math.ceil((until - Date.now()) / 1000))} s left `);
  draw();
  const timer = setInterval(draw, 250);
  await work.finally(() => (clearInterval(timer), process.stdout.write("\r\x1b[K")));
}

//#region run
// The servers write to stderr at the same time: their lines are kept and printed at the end, grouped by server.
const stderr: string[] = [];
const { servers } = loadConfig({ project });
let changed = () => {};
// 3 s, not the default 15: the silent server costs the whole timeout, and a local TypeScript server is ready in one.
const timeoutMs = 3_000;
const manager = new McpManager(servers, {
  timeoutMs,
  log: (line) => stderr.push(line),
  onToolsChanged: () => changed(),
});
console.log(`starting every stdio server; one that does not answer within ${timeoutMs / 1000} s is marked failed\n`);
await waitingFor(manager.connectAll(), timeoutMs);
// Names, errors and results come from the configuration and the servers: printable() before they reach the terminal.
for (const { name, state, tools, lastError } of manager.status()) {
  console.log(
    printable(
      `${name.padEnd(12)} ${state.padEnd(12)} ${String(tools).padStart(2)} tools${lastError ? `  ${lastError}` : ""}`,
    ),
  );
}
const offered = new Set(manager.tools().map((tool) => tool.name));
const routes = manager.routes().filter((route) => offered.has(route.name));
const width = Math.max(...routes.map(({ name }) => name.length));
console.log(
  printable(
    `\ntools offered, and where each call goes:\n  ` +
      `${routes.map(({ name, server, tool }) => `${name.padEnd(width)} -> ${server} / ${tool}`).join("\n  ")}`,
  ),
);

const show = async (name: string, args: Record<string, unknown> = {}) => {
  const result = await manager.callTool(name, args);
  console.log(
    printable(
      `\n${name} ${JSON.stringify(args)} -> ` +
        `${result.content.map((item) => (item.type === "text" ? item.text : item.type)).join(" ")}`,
    ),
  );
};
await show("mcp__demo__add", { a: 2, b: 40 });
await show("mcp__handwritten__add", { a: 2, b: 40 });
const refreshed = new Promise<void>((resolve) => (changed = resolve));
await show("mcp__vault__unlock");
await refreshed;
console.log(
  printable(
    `after notifications/tools/list_changed: ${manager
      .tools()
      .filter((tool) => tool.name.startsWith("mcp__vault__"))
      .map((tool) => tool.name)
      .join(", ")}`,
  ),
);
await show("mcp__vault__secret");
const failing = (name: string) =>
  manager.callTool(name).catch((error: Error) => console.log(printable(`\n${name} {} -> error: ${error.message}`)));
await failing("mcp__vault__crash");
console.log(
  `vault is now ${manager.status().find((server) => server.name === "vault")?.state}; its next call starts it again`,
);
await show("mcp__vault__open");
await failing("mcp__silent__anything");

const groups = manager.processGroups();
await manager.closeAll();
const left = await leftInGroups(groups);
const leftOver =
  left.length === 0 ? `no process left in the ${groups.length} process groups` : `${left.length} processes left!`;
console.log(`\ncloseAll: ${leftOver}`);
// Sorted by server (the sort is stable), each server's lines in the order they came.
const server = (line: string) => line.slice(0, line.indexOf("]"));
stderr.sort((a, b) => server(a).localeCompare(server(b)));
console.log(`\nwhat the servers wrote to stderr, as the host printed it:\n  ${stderr.join("\n  ")}`);
//#endregion
