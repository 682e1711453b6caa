// A command-line MCP client: lists a server's tools or calls one, and says how it went in its exit code. Exit codes: 0
// ok, 1 the tool reported an error (its text on stderr), 2 protocol error, timeout or dead server, 64 bad usage.
import { JsonRpcError, McpClient, type CallToolResult, type Content } from "./client.ts";

const USAGE = `usage: cli.ts [--timeout <ms>] tools -- <server command...>
       cli.ts [--timeout <ms>] call <tool> '<json arguments>' -- <server command...>`;
const EX_USAGE = 64; // from BSD's sysexits.h: the command was used incorrectly
const MAX_TIMEOUT_MS = 2 ** 31 - 1; // setTimeout fires at once for anything larger

type Invocation = { timeoutMs?: number; server: string[] } & (
  { command: "tools" } | { command: "call"; tool: string; args: object }
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
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
      throw new UsageError(
        `bad --timeout: ${words[1] ?? "(missing)"} (a whole number of milliseconds, 1 to ${MAX_TIMEOUT_MS})`,
      );
    }
    words.splice(0, 2);
  }
  const [command, ...rest] = words;
  if (command === "tools" && rest.length === 0) return { command, timeoutMs, server };
  if (command === "call" && rest.length === 2)
    return { command, tool: rest[0]!, args: parseArguments(rest[1]!), timeoutMs, server };
  throw new UsageError(
    command === "tools" || command === "call"
      ? `wrong arguments for ${command}`
      : `unknown command: ${command ?? "(none)"}`,
  );
}

function parseArguments(json: string): object {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new UsageError(`tool arguments are not JSON: ${json}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError("tool arguments must be a JSON object");
  return value;
}
//#endregion

//#region print
// Control characters from the server could move the cursor, retitle the window or hide text: only \n and \t pass.
const printable = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "");

// Text is printed as is; anything else is summarised, since a terminal cannot show an image.
function describe(item: Content): string {
  if (item.type === "text") return item.text ?? "";
  const size = item.data === undefined ? "" : `, ${Buffer.byteLength(String(item.data), "base64")} bytes`;
  const resource = item.resource as { uri?: string } | undefined;
  const uri = item.uri ?? resource?.uri;
  return `[${item.type}${item.mimeType ? ` ${item.mimeType}` : ""}${uri ? ` ${uri}` : ""}${size}]`;
}

function printResult(result: CallToolResult): number {
  const text = printable(result.content.map(describe).join("\n")) + "\n";
  if (!result.isError) return (process.stdout.write(text), 0);
  process.stderr.write(text);
  return 1;
}
//#endregion

//#region run
/** Connects, runs the one command, prints its result and resolves with the exit code. */
async function run(invocation: Invocation, client: McpClient): Promise<number> {
  await client.connect();
  if (invocation.command === "call") return printResult(await client.callTool(invocation.tool, invocation.args));
  const tools = await client.listTools();
  // reduce, not Math.max(...names): spreading 200,000 arguments overflows the call stack.
  const width = Math.min(
    40,
    tools.reduce((widest, tool) => Math.max(widest, tool.name.length), 0),
  );
  for (const tool of tools)
    console.log(printable(`${tool.name.padEnd(width)}  ${tool.description?.split("\n")[0] ?? ""}`));
  return 0;
}
//#endregion

//#region main
// The server leads its own process group, so a signal to this process reaches only it: pass the stop on, then leave
// with the status a shell expects, 128 + the signal's number. A second signal while the server stops (Ctrl-C pressed
// twice) exits at once, and the transport's "exit" handler SIGKILLs the server's group on the way out. With
// process.once, the second signal would kill this process outright: no "exit" handler runs, and the server stays.
const SIGNAL_STATUS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/** On SIGINT, SIGTERM or SIGHUP: stop the server, then exit; on a second one, exit now. */
function stopOnSignals(client: McpClient): void {
  let stopping = false;
  for (const [signal, status] of Object.entries(SIGNAL_STATUS)) {
    process.on(signal, () => {
      if (stopping) process.exit(status);
      stopping = true;
      void client.close().then(() => process.exit(status));
    });
  }
}

async function main(argv: string[]): Promise<number> {
  let invocation: Invocation;
  try {
    invocation = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\n${USAGE}`);
    return EX_USAGE;
  }
  const [command, ...args] = invocation.server;
  const client = new McpClient(command!, args, { timeoutMs: invocation.timeoutMs });
  stopOnSignals(client);
  // A reader that stops early (`cli.ts tools -- … | head -1`) ends the run quietly; the server is stopped all the same.
  process.stdout.on("error", () => void client.close().then(() => process.exit(0)));
  try {
    return await run(invocation, client);
  } catch (error) {
    const code = error instanceof JsonRpcError ? `JSON-RPC error ${error.code}: ` : "";
    console.error(printable(`error: ${code}${(error as Error).message}`));
    return 2;
  } finally {
    await client.close();
  }
}
//#endregion

process.exitCode = await main(process.argv.slice(2));
