// Step 05 demo: step 04's hand-written McpClient drives this step's SDK server; that is the point of a protocol.
// The server gets a fresh temporary workspace, and each call prints its arguments and content, refusals included.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpClient, type Content } from "./client.ts";

//#region workspace
const base = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-05-demo-"));
const workspace = path.join(base, "workspace");
mkdirSync(workspace);
writeFileSync(path.join(workspace, "notes.txt"), "Remember: stdout belongs to the protocol.\n");
writeFileSync(path.join(base, "secret.txt"), "outside the workspace\n");
symlinkSync("../secret.txt", path.join(workspace, "escape.txt"));
//#endregion

//#region connect
const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const client = new McpClient(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, workspace]);
//#endregion

// Text is shown as is; an image or a sound by its type, MIME type and decoded size.
function show(item: Content): string {
  if (item.type === "text") return item.text ?? "";
  return `${item.type} ${item.mimeType}, ${Buffer.from(item.data ?? "", "base64").length} bytes`;
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<void> {
  console.log(`\n${name} ${JSON.stringify(args)}`);
  const result = await client.callTool(name, args);
  const marker = result.isError ? "isError: " : "";
  for (const item of result.content) console.log(`  ${marker}${show(item).trimEnd().replaceAll("\n", "\n  ")}`);
}

try {
  console.log(`workspace: ${workspace} (notes.txt, escape.txt -> ../secret.txt)`);
  //#region handshake
  const { protocolVersion, serverInfo } = await client.connect();
  console.log(`initialize: protocol ${protocolVersion}, server ${serverInfo.name} ${serverInfo.version}`);
  const tools = await client.listTools();
  console.log(`tools/list: ${tools.map((tool) => tool.name).join(", ")}`);
  //#endregion
  //#region calls
  await call("add", { a: 2, b: 40 });
  await call("echo", { text: "café 🙂" });
  await call("get_current_time", { timeZone: "Mars/Olympus_Mons" });
  await call("write_file", { path: "hello.txt", content: "Hello from the demo.\n" });
  await call("write_file", { path: "hello.txt", content: "again" });
  await call("read_file", { path: "hello.txt" });
  await call("list_files");
  await call("read_file", { path: "../secret.txt" });
  await call("read_file", { path: "escape.txt" });
  await call("sample_media");
  //#endregion
} finally {
  // Ends the server's stdin; the SDK server exits on its own, and close() signals its group if it lingers.
  await client.close();
  rmSync(base, { recursive: true, force: true });
}
