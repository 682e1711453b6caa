// The matrix's three clients, each driven the way a user drives it: both CLIs as real child processes, the SDK client
// through the SDK client step's connect(). That module is TypeScript, so this loads under vitest, never plain Node.
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { handWrittenCli, inspectorBin, runProcess, serverArgv } from "./launch.mjs";
import { MODERN_VERSION, serverOf } from "./matrix.mjs";

const { callTool, connect } = await import(roleProgram("SDK client"));
const textOf = (result) =>
  result.content
    .filter((item) => item.type === "text")
    .map((item) => item.text)
    .join("\n");
const failed = (run) => ({ observed: { outcome: "error", exitCode: run.status, error: run.stderr.trim() } });

//#region hand-written
async function handWritten(cell, { folder, tags, bundles }) {
  const { call } = serverOf(cell);
  // its server inherits env
  const [server, env] = [serverArgv(cell.server, folder, bundles), { ...process.env, ...tags }];
  const list = await runProcess([...handWrittenCli(bundles), "tools", "--", ...server], env);
  if (list.status !== 0) return failed(list);
  const args = JSON.stringify(call.args);
  const called = await runProcess([...handWrittenCli(bundles), "call", call.tool, args, "--", ...server], env);
  if (called.status !== 0) return failed(called);
  // One tool a line: its name, padded, then the first line of its description.
  const tools = list.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => line.split(" ")[0]);
  return { observed: { outcome: "ok", text: called.stdout.trimEnd() }, tools };
}
//#endregion

//#region inspector
// With --format json -q the Inspector prints {"result": …} on stdout, or {"error": {code, message}} on stderr.
function inspectorOutcome(run) {
  if (run.status === 0) return { result: JSON.parse(run.stdout).result };
  let error;
  try {
    error = JSON.parse(run.stderr).error;
  } catch {
    error = { code: "unparsed", message: run.stderr.trim() };
  }
  return { failure: { outcome: "error", exitCode: run.status, code: error.code, error: error.message } };
}

async function inspector(cell, { folder, tags, bundles }) {
  const { call } = serverOf(cell);
  // Its catalog and client config would otherwise land in ~/.mcp-inspector; it passes the server only what -e names.
  const state = { MCP_CATALOG_PATH: `${folder}.catalog.json`, MCP_CLIENT_CONFIG_PATH: `${folder}.client.json` };
  const env = { ...process.env, ...state };
  const passOn = Object.entries(tags).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
  const run = (method, ...more) => {
    // Its own connect timeout (15 s) would fail a cell whose servers start slowly on a busy machine.
    const format = ["--protocol-era", cell.era, "--connect-timeout", "60000", "--format", "json", "-q"];
    const server = serverArgv(cell.server, folder, bundles);
    const argv = [
      process.execPath,
      inspectorBin,
      "--cli",
      ...passOn,
      ...server,
      "--method",
      method,
      ...more,
      ...format,
    ];
    return runProcess(argv, env);
  };
  // One run: the Inspector lists the tools itself before it calls one (it refuses a tool the server does not offer),
  // so a successful call has also listed them. The tool names are checked in the SDK client's cells of the same server.
  const args = ["--tool-name", call.tool, "--tool-args-json", JSON.stringify(call.args)];
  const calling = await run("tools/call", ...args);
  const called = inspectorOutcome(calling);
  if (called.failure) return { observed: called.failure, ms: calling.ms };
  // Only modern-era results carry the server's identity in _meta: that is how the era shows from outside.
  const negotiated = called.result._meta?.["io.modelcontextprotocol/serverInfo"] ? "modern" : "legacy";
  return { observed: { outcome: "ok", negotiated, text: textOf(called.result) }, ms: calling.ms };
}
//#endregion

//#region probe
// A TypeScript server's start-up counts against the probe's clock: 5 s covers it on an idle machine, not with three
// cells at once on 2 cores, where the probe times out, `auto` silently falls back to legacy and a pin fails as "did not
// offer".
export const PROBE_TIMEOUT_MS = 30_000;
// Loose, but below every probe timeout here (the Inspector's is the SDK's 60 s): a fallback this quick came from the
// server's answer to server/discover, not from waiting out the probe.
export const FALLBACK_BOUND_MS = 15_000;
//#endregion

//#region sdk
// `modern` pins 2026-07-28, as the Inspector's --protocol-era modern does. The server gets only the tags as extra env.
async function sdk(cell, { folder, tags, bundles }) {
  const { call } = serverOf(cell);
  const [command, ...args] = serverArgv(cell.server, folder, bundles);
  const mode = cell.era === "modern" ? { pin: MODERN_VERSION } : cell.era;
  const started = Date.now();
  let connection;
  try {
    connection = await connect({ command, args, env: tags }, mode, PROBE_TIMEOUT_MS);
  } catch (error) {
    return { observed: { outcome: "error", code: error.code, error: error.message }, ms: Date.now() - started };
  }
  const ms = Date.now() - started;
  try {
    const { tools } = await connection.client.listTools();
    const called = await callTool(connection.client, call.tool, call.args);
    if (called.kind !== "result") {
      const [code, error] =
        called.kind === "tool error" ? ["isError", textOf(called.result)] : [called.code, called.message];
      return { observed: { outcome: "error", code, error }, ms };
    }
    const observed = { outcome: "ok", negotiated: connection.client.getProtocolEra(), text: textOf(called.result) };
    return { observed, tools: tools.map((tool) => tool.name), ms };
  } finally {
    await connection.close();
  }
}
//#endregion

/**
 * Runs one cell; `context` holds its folder, its tags and the bundles from bundlePrograms. Resolves with `observed`
 * (what results.json records), the tool names and, where timed, `ms`.
 */
export async function runCell(cell, context) {
  try {
    return await { "hand-written": handWritten, sdk, inspector }[cell.client](cell, context);
  } catch (error) {
    return { observed: { outcome: "error", code: error.code ?? "thrown", error: error.message } };
  }
}
