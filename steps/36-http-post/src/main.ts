// Demo: the bridge serves the tutorial's stdio server over Streamable HTTP. The SDK's HTTP client lists its tools and
// calls count_slowly through it; a SIGTERM then stops the bridge, and its server with it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

//#region start
// The bridge is a program of its own, as a deployed server would be; it says where it listens on stderr.
const program = fileURLToPath(new URL("./server.ts", import.meta.url));
const bridge = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, "--port", "0"], {
  stdio: ["ignore", "ignore", "pipe"],
});
process.once("exit", () => bridge.kill()); // even if the demo fails: a server it started must not outlive it
const stderr: string[] = [];
const listening = new Promise<string>((resolve, reject) => {
  createInterface({ input: bridge.stderr }).on("line", (line) =>
    line.startsWith("listening on ") ? resolve(line) : stderr.push(line),
  );
  bridge.on("exit", (code) => reject(new Error(`the bridge exited with code ${code}`)));
});
const url = (await listening).replace("listening on ", "");
console.log(`$ server.ts --port 0\n${await listening}\n`);
//#endregion

//#region client
const client = new Client({ name: "learn-mcp-demo", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
const transport = new StreamableHTTPClientTransport(new URL(url));
await client.connect(transport);
console.log(
  `connected to ${client.getServerVersion()?.name} over HTTP, protocol ${client.getNegotiatedProtocolVersion()}`,
);
console.log(`tools/list: ${(await client.listTools()).tools.map((tool) => tool.name).join(", ")}`);

// As over stdio, the request asks for progress; the server sends it, and logs, but a JSON answer has no room for
// either: the bridge's stderr, at the end, says what it dropped.
const progressToken = "count-1";
console.log('tools/call count_slowly {"to":2}');
const result = await client.callTool({ name: "count_slowly", arguments: { to: 2 }, _meta: { progressToken } });
console.log(`-> result ${JSON.stringify(result.content)}`);
await client.close();
//#endregion

//#region stop
// The bridge exits on SIGTERM, and its server, whose stdin then ends, exits on its own.
bridge.kill("SIGTERM");
const [code] = (await once(bridge, "exit")) as [number];
console.log(`\nSIGTERM: the bridge exited with code ${code}`);
const normalized = stderr.map((line) => line.replace(/pid \d+/, "pid <pid>"));
console.log(`\nthe bridge's stderr:\n${normalized.map((line) => `  ${line}`).join("\n")}`);
if (code !== 143) process.exitCode = 1;
//#endregion
