// Demo: one call to sample_media, and each content item as it travels, with its base64 shortened.
// One connection, typed by hand in the 2026-07-28 era as in the previous step: no handshake is needed.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const workspace = mkdtempSync(path.join(tmpdir(), "learn-mcp-content-types-"));
process.on("exit", () => rmSync(workspace, { recursive: true, force: true }));

//#region connection
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const server = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, workspace], {
  stdio: ["pipe", "pipe", "ignore"],
});
const answers = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
let nextId = 1;

/** One tools/call at a time, so the next line out is its answer: its result, as it came. */
async function call(name: string, args: Record<string, string>): Promise<{ content: Record<string, unknown>[] }> {
  const request = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name, arguments: args, _meta: META },
  };
  server.stdin.write(JSON.stringify(request) + "\n");
  return JSON.parse((await answers.next()).value).result;
}
//#endregion

//#region show
// The item as JSON with its base64 cut short, then what the base64 decodes to.
function show(item: Record<string, unknown>): string {
  if (typeof item.data !== "string") return JSON.stringify(item);
  const { data, ...rest } = item;
  const bytes = Buffer.from(data, "base64");
  const short = JSON.stringify({ ...rest, data: `${data.slice(0, 24)}…` });
  const magic = bytes.toString("latin1", 0, 4).replace(/[^ -~]/g, ".");
  return `${short}\n  ${data.length} base64 characters, ${bytes.length} bytes decoded, starting "${magic}"`;
}

try {
  console.log("tools/call sample_media {} -> content:"); // before the server starts, so the reader knows what comes
  const { content } = await call("sample_media", {});
  for (const item of content) console.log(show(item));
} finally {
  server.stdin.end();
}
//#endregion
