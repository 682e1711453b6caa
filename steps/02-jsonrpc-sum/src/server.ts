// Step 02's server: JSON-RPC 2.0 over stdio with two methods, sum and createFile.
// Run as `server.ts <sandbox-folder>`: settings come as arguments; stdout carries responses only.
import { LineDecoder } from "./framing.ts";
import { handleLine, invalidParams, isObject, type Method, type Methods } from "./jsonrpc.ts";
import { openSandbox, SandboxError, writeInside } from "./sandbox.ts";

if (process.argv[2] === undefined) {
  console.error("usage: server.ts <sandbox-folder>");
  process.exit(2);
}
const sandbox = await openSandbox(process.argv[2]);

//#region methods
/** sum: params {"numbers": [1, 2, 3]}, result 6. */
function sum(params: unknown): number {
  const numbers = isObject(params) ? params.numbers : undefined;
  if (!Array.isArray(numbers) || !numbers.every((n) => typeof n === "number")) {
    throw invalidParams('sum takes {"numbers": [number, ...]}');
  }
  return numbers.reduce((total: number, n: number) => total + n, 0);
}

/** createFile: params {"path": "notes.txt", "content": "..."}, path relative to the sandbox. */
async function createFile(params: unknown): Promise<{ path: string; bytes: number }> {
  if (!isObject(params) || typeof params.path !== "string" || typeof params.content !== "string") {
    throw invalidParams('createFile takes {"path": string, "content": string}');
  }
  try {
    return { path: params.path, bytes: await writeInside(sandbox, params.path, params.content) };
  } catch (error) {
    // A refused path is the caller's mistake, so -32602; any other failure stays -32603.
    if (error instanceof SandboxError) throw invalidParams(error.message);
    throw error;
  }
}

const methods: Methods = new Map<string, Method>([
  ["sum", sum],
  ["createFile", createFile],
]);
//#endregion

//#region serve
// Each line is answered when its method finishes, so a slow request never holds up a quick one.
function serve(line: string): void {
  // A blank line carries no message: skip it rather than answer it with a parse error.
  if (line.trim() === "") return;
  void handleLine(line, methods).then((reply) => {
    if (reply !== undefined) process.stdout.write(reply + "\n");
  });
}

const decoder = new LineDecoder();
process.stdin.on("data", (chunk: Buffer) => decoder.push(chunk).forEach(serve));
process.stdin.on("end", () => {
  const last = decoder.end();
  if (last !== undefined) serve(last);
});
//#endregion

console.error(`[server] serving JSON-RPC on stdio; sandbox ${sandbox}`);
