// The server: JSON-RPC 2.0 over stdio with sum, sleep and createFile, which writes inside one sandbox folder.
// stdout carries responses and nothing else; a line over the size limit is answered with an error and skipped.
import { setTimeout as wait } from "node:timers/promises";
import { parseArgs } from "node:util";
import { LineDecoder, LineTooLong, MAX_LINE_BYTES, type Line } from "./framing.ts";
import {
  checkParams,
  failure,
  handleLine,
  InvalidRequest,
  invalidParams,
  type Method,
  type Methods,
} from "./jsonrpc.ts";
import { openSandbox, SandboxError, writeInside } from "./sandbox.ts";

//#region options
const USAGE = "usage: server.ts [--max-line-bytes N] <sandbox-folder>";
/** Reads --max-line-bytes from the command line; throws on a value that is not a positive whole number. */
function parseOptions(): { maxLineBytes: number; folder: string } {
  const options = { "max-line-bytes": { type: "string" } } as const;
  const { values, positionals } = parseArgs({ options, allowPositionals: true });
  const maxLineBytes = Number(values["max-line-bytes"] ?? MAX_LINE_BYTES);
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
    throw new Error("--max-line-bytes takes a positive whole number");
  if (positionals.length !== 1) throw new Error("expected one sandbox folder");
  return { maxLineBytes, folder: positionals[0]! };
}

/** The options, or an error that adds the usage line to what was wrong. */
function readOptions(): { maxLineBytes: number; folder: string } {
  try {
    return parseOptions();
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
}
//#endregion

//#region methods
/** sum: params {"numbers": [1, 2, 3]}, result 6. */
function sum(params: unknown): number {
  const usage = 'sum takes {"numbers": [number, ...]}';
  const { numbers } = checkParams(params, ["numbers"], usage);
  if (!Array.isArray(numbers) || !numbers.every((n) => typeof n === "number")) throw invalidParams(usage);
  const total = numbers.reduce((a: number, b: number) => a + b, 0);
  // JSON has no Infinity: JSON.stringify would quietly send null, so an overflowing sum is refused instead.
  if (!Number.isFinite(total)) throw invalidParams("the sum is not a finite number");
  return total;
}

/** sleep: params {"ms": 250}, answered with the same number once that many milliseconds have passed. */
async function sleep(params: unknown): Promise<number> {
  const usage = 'sleep takes {"ms": a whole number from 0 to 10000}';
  const { ms } = checkParams(params, ["ms"], usage);
  if (typeof ms !== "number" || !Number.isInteger(ms) || ms < 0 || ms > 10_000) throw invalidParams(usage);
  await wait(ms);
  return ms;
}

/** createFile: params {"path": "notes.txt", "content": "..."}, path relative to the sandbox; result {path, bytes}. */
async function createFile(params: unknown): Promise<{ path: string; bytes: number }> {
  const usage = 'createFile takes {"path": string, "content": string}';
  const { path, content } = checkParams(params, ["path", "content"], usage);
  if (typeof path !== "string" || typeof content !== "string") throw invalidParams(usage);
  try {
    return { path, bytes: await writeInside(sandbox, path, content) };
  } catch (error) {
    // A refused path is the caller's mistake, so -32602; any other failure stays -32603, details in the log.
    if (error instanceof SandboxError)
      throw invalidParams(`createFile refused ${JSON.stringify(path)}: ${error.message}`);
    throw error;
  }
}

const methods: Methods = new Map<string, Method>([
  ["sum", sum],
  ["sleep", sleep],
  ["createFile", createFile],
]);
//#endregion

//#region serve
/** Writes one answer as a line on stdout. */
const reply = (line: string) => process.stdout.write(line + "\n");

/** Answers one line of input, or a line over the limit with -32600. */
// Each line is answered when its method finishes, so a slow request never holds up a quick one.
function serve(line: Line): void {
  if (line instanceof LineTooLong) {
    return void reply(
      JSON.stringify(failure(null, InvalidRequest, `Invalid Request: message over ${line.limit} bytes`)),
    );
  }
  // A blank line carries no message: skip it rather than answer it with a parse error.
  if (line.trim() === "") return;
  void handleLine(line, methods).then((answer) => answer !== undefined && reply(answer));
}

function listen(maxLineBytes: number): void {
  const decoder = new LineDecoder(maxLineBytes);
  process.stdin.on("data", (chunk: Buffer) => decoder.push(chunk).forEach(serve));
  process.stdin.on("end", () => {
    const last = decoder.end();
    if (last !== undefined) serve(last);
  });
}
//#endregion

let sandbox = "";
try {
  const options = readOptions();
  sandbox = await openSandbox(options.folder);
  listen(options.maxLineBytes);
  console.error(`[server] serving JSON-RPC on stdio; sandbox ${sandbox}`);
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
