// The server: JSON-RPC 2.0 over stdio, with sum and a slow method, sleep, to show answers out of order.
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

//#region options
const USAGE = "usage: server.ts [--max-line-bytes N]";
/** Reads --max-line-bytes from the command line; throws on a value that is not a positive whole number. */
function parseOptions(): { maxLineBytes: number } {
  const { values } = parseArgs({ options: { "max-line-bytes": { type: "string" } } });
  const maxLineBytes = Number(values["max-line-bytes"] ?? MAX_LINE_BYTES);
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
    throw new Error("--max-line-bytes takes a positive whole number");
  return { maxLineBytes };
}

/** The options, or an error that adds the usage line to what was wrong. */
function readOptions(): { maxLineBytes: number } {
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

const methods: Methods = new Map<string, Method>([
  ["sum", sum],
  ["sleep", sleep],
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

try {
  listen(readOptions().maxLineBytes);
  console.error("[server] serving JSON-RPC on stdio");
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 2;
}
