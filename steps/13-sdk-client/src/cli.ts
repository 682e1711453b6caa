// A command-line MCP client: lists a server's tools or calls one, and says how it went in its exit code.
// Exit codes: 0 ok, 1 the tool reported an error (its text on stderr), 2 protocol error, timeout or dead server, 64 bad usage.
import { JsonRpcError, McpClient, type CallToolResult, type Content } from "./client.ts";

const USAGE = `usage: cli.ts [--timeout <ms>] tools -- <server command...>
       cli.ts [--timeout <ms>] call <tool> '<json arguments>' -- <server command...>`;
const EX_USAGE = 64; // from BSD's sysexits.h: the command was used incorrectly

type Invocation = { timeoutMs?: number; server: string[] } & (
  | { command: "tools" }
  | { command: "call"; tool: string; args: object }
);

class UsageError extends Error {}

//#region parse
// Everything after "--" belongs to the server command, so its own flags never reach this parser.
function parseArgs(argv: string[]): Invocation {
  const separator = argv.indexOf("--");
  if (separator === -1) throw new UsageError('missing "--" before the server command');
  const server = argv.slice(separator + 1);
  if (server.length === 0) throw new UsageError('missing server command after "--"');
  const words = argv.slice(0, separator);
  let timeoutMs: number | undefined;
  if (words[0] === "--timeout") {
    timeoutMs = Number(words[1]);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`bad --timeout: ${words[1] ?? "(missing)"}`);
    words.splice(0, 2);
  }
  const [command, ...rest] = words;
  if (command === "tools" && rest.length === 0) return { command, timeoutMs, server };
  if (command === "call" && rest.length === 2) return { command, tool: rest[0]!, args: parseArguments(rest[1]!), timeoutMs, server };
  throw new UsageError(command === "tools" || command === "call" ? `wrong arguments for ${command}` : `unknown command: ${command ?? "(none)"}`);
}

function parseArguments(json: string): object {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UsageError(`tool arguments are not JSON: ${json}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError("tool arguments must be a JSON object");
  return value;
}
//#endregion

//#region print
// Text is printed as is; anything else is summarised, since a terminal cannot show an image.
function describe(item: Content): string {
  if (item.type === "text") return item.text ?? "";
  const size = item.data === undefined ? "" : `, ${Buffer.byteLength(item.data, "base64")} bytes`;
  const resource = item.resource as { uri?: string } | undefined;
  const uri = item.uri ?? resource?.uri;
  return `[${item.type}${item.mimeType ? ` ${item.mimeType}` : ""}${uri ? ` ${uri}` : ""}${size}]`;
}

function printResult(result: CallToolResult): number {
  const text = result.content.map(describe).join("\n") + "\n";
  if (!result.isError) return process.stdout.write(text), 0;
  process.stderr.write(text);
  return 1;
}
//#endregion

//#region run
async function run(invocation: Invocation): Promise<number> {
  const [command, ...args] = invocation.server;
  const client = new McpClient(command!, args, { timeoutMs: invocation.timeoutMs });
  // The server leads its own process group, so Ctrl-C reaches only this process: pass it on.
  process.once("SIGINT", () => void client.close().then(() => process.exit(130)));
  try {
    await client.connect();
    if (invocation.command === "call") return printResult(await client.callTool(invocation.tool, invocation.args));
    const tools = await client.listTools();
    const width = Math.max(...tools.map((tool) => tool.name.length));
    for (const tool of tools) console.log(`${tool.name.padEnd(width)}  ${tool.description?.split("\n")[0] ?? ""}`);
    return 0;
  } catch (error) {
    const code = error instanceof JsonRpcError ? `JSON-RPC error ${error.code}: ` : "";
    console.error(`error: ${code}${(error as Error).message}`);
    return 2;
  } finally {
    await client.close();
  }
}

function main(argv: string[]): Promise<number> | number {
  try {
    return run(parseArgs(argv));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n${USAGE}`);
    return EX_USAGE;
  }
}
//#endregion

process.exitCode = await main(process.argv.slice(2));
