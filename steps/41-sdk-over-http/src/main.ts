// Demo: the SDK serves an McpServer over Streamable HTTP, and the SDK's client reaches it three ways: the
// 2025 handshake (legacy), a probe that picks the newest era the server speaks (auto), and 2026-07-28 pinned.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { progressBar } from "./progress-bar.ts";

//#region start
const program = fileURLToPath(new URL("./server.ts", import.meta.url));
const server = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, "--port", "0"], {
  stdio: ["ignore", "ignore", "pipe"],
});
process.once("exit", () => server.kill()); // even if the demo fails: a server it started must not outlive it
const stderr: string[] = [];
const listening = new Promise<string>((resolve, reject) => {
  createInterface({ input: server.stderr }).on("line", (line) =>
    line.startsWith("listening on ") ? resolve(line) : stderr.push(line),
  );
  server.on("exit", (code) => reject(new Error(`the server exited with code ${code}`)));
});
const url = (await listening).replace("listening on ", "");
console.log(`$ server.ts --port 0\n${await listening}\n`);
//#endregion

//#region modes
// The one thing that changes between the three clients is how they choose the protocol revision.
const modes: [string, NonNullable<ClientOptions["versionNegotiation"]>["mode"]][] = [
  ["legacy", "legacy"],
  ["auto", "auto"],
  ["pinned 2026-07-28", { pin: "2026-07-28" }],
];

for (const [label, mode] of modes) {
  const client = new Client({ name: "learn-mcp-demo", version: "0.1.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  console.log(
    `${label}: ${client.getProtocolEra()} era, protocol ` +
      `${client.getNegotiatedProtocolVersion()}, server ${client.getServerVersion()?.name}`,
  );

  const bar = progressBar();
  const progressToken = `count-${label.split(" ")[0]}`;
  client.setNotificationHandler("notifications/progress", ({ params }) => {
    if (params.progressToken === progressToken) bar.update(params);
  });
  bar.print('tools/call count_slowly {"to":2}');
  const result = await client.callTool({ name: "count_slowly", arguments: { to: 2 }, _meta: { progressToken } });
  bar.print(`-> result ${JSON.stringify(result.content)}\n`);
  await client.close();
}
//#endregion

//#region refusals
// The bridge refused these by hand; here local-only.ts and the SDK do. node's http module sends any header.
const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function send(what: string, method: string, headers: Record<string, string>, body?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        const { error } = JSON.parse(text) as { error: { code: number; message: string } };
        resolve(
          console.log(
            `${what.padEnd(40)} -> ${response.statusCode} ${response.statusMessage}: ${error.code} ${error.message}`,
          ),
        );
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
await send("POST with Host: evil.example", "POST", { ...json, host: "evil.example" }, ping);
await send("POST with Host: evil.example@localhost", "POST", { ...json, host: "evil.example@localhost" }, ping);
await send("POST with Origin: https://evil.example", "POST", { ...json, origin: "https://evil.example" }, ping);
await send("POST as text/plain", "POST", { ...json, "content-type": "text/plain" }, ping);
await send("POST accepting only application/json", "POST", { ...json, accept: "application/json" }, ping);
await send('POST of {"jsonrpc":', "POST", json, '{"jsonrpc":');
await send("POST announcing a 5 MiB body", "POST", { ...json, "content-length": String(5 * 1024 * 1024) });
await send("GET /mcp", "GET", { accept: "text/event-stream" });
//#endregion

//#region stop
server.kill("SIGTERM");
const [code] = (await once(server, "exit")) as [number];
console.log(`\nSIGTERM: the server exited with code ${code}`);
console.log(`the server's stderr:\n${stderr.map((line) => `  ${line}`).join("\n")}`);
if (code !== 0) process.exitCode = 1;
//#endregion
