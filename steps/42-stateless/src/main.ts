// Demo: one server, both eras. A 2026-07-28 request needs no session: fetch sends the same one twice, on
// fresh connections. Then the server asks the user a question: by elicitation/create in a 2025-era session, and by
// an input_required result that a 2026-07-28 client answers by sending its call again.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";

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

//#region stateless
// Everything the server needs is in the request: the revision and the client's capabilities ride in _meta, and
// the method and tool name also in headers. No initialize came first, and no session id goes with it.
const envelope = (version = "2026-07-28", capabilities: object = {}) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

interface JsonRpcAnswer {
  result?: { resultType: string; content: { text: string }[]; _meta: Record<string, { name: string }> };
  error?: { code: number; message: string; data?: { supported?: string[] } };
}

async function modern(
  method: string,
  params: Record<string, unknown>,
  version = "2026-07-28",
): Promise<[number, string | null, JsonRpcAnswer]> {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    "mcp-method": method,
  };
  if (typeof params.name === "string") Object.assign(headers, { "mcp-name": params.name });
  // Connection: close ends the connection after the answer, so the next request needs a new one: only what is sent
  // counts.
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, connection: "close" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return [response.status, response.headers.get("mcp-session-id"), (await response.json()) as JsonRpcAnswer];
}

const add = { name: "add", arguments: { a: 2, b: 40 }, _meta: envelope() };
const headers =
  `-H 'content-type: application/json' -H 'accept: application/json, text/event-stream' ` +
  `-H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/call' -H 'mcp-name: add'`;
console.log(
  `$ curl -s ${url} ${headers} -d '${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: add })}'`,
);
for (const attempt of [1, 2]) {
  const [status, session, { result }] = await modern("tools/call", add);
  const serverInfo = result!._meta["io.modelcontextprotocol/serverInfo"]!;
  console.log(
    `fetch ${attempt}, a fresh connection: ${status}, Mcp-Session-Id ${session ?? "none"}, ` +
      `resultType ${result!.resultType}, ${result!.content[0]!.text} from ${serverInfo.name}`,
  );
}
//#endregion

//#region refusals
// What the revision removed or cannot serve, each answered as a JSON-RPC error.
async function refused(what: string, method: string, params: Record<string, unknown>, version?: string): Promise<void> {
  const [status, , answer] = await modern(method, params, version);
  const error = answer.error!;
  console.log(
    `${what.padEnd(42)} -> ${status}: ${error.code} ` +
      `${error.message}${error.data?.supported ? `; supported: ${error.data.supported}` : ""}`,
  );
}
console.log();
await refused("initialize, in the 2026-07-28 era", "initialize", {
  protocolVersion: "2026-07-28",
  capabilities: {},
  clientInfo: { name: "demo", version: "0" },
  _meta: envelope(),
});
await refused("ping, removed by 2026-07-28", "ping", { _meta: envelope() });
await refused("tools/list for revision 2099-01-01", "tools/list", { _meta: envelope("2099-01-01") }, "2099-01-01");
await refused("greet, from a client that cannot answer", "tools/call", {
  name: "greet",
  arguments: {},
  _meta: envelope(),
});
//#endregion

//#region ask
// The client's side of a question: elicitation/create, whichever era carried it. A real host would show a form.
type Mode = NonNullable<ClientOptions["versionNegotiation"]>["mode"];
async function greet(label: string, mode: Mode): Promise<void> {
  const client = new Client(
    { name: "learn-mcp-demo", version: "0.1.0" },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler("elicitation/create", async ({ params }) => {
    console.log(`  the server asks: ${params.message} -> answering "Ada"`);
    return { action: "accept", content: { name: "Ada" } };
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  console.log(
    `\n${label}: ${client.getProtocolEra()} era, protocol ${client.getNegotiatedProtocolVersion()}, ` +
      `Mcp-Session-Id ${transport.sessionId ? "<session id>" : "none"}`,
  );
  const result = await client.callTool({ name: "greet", arguments: {} });
  console.log(`  -> ${JSON.stringify(result.content)}`);
  if (transport.sessionId) await transport.terminateSession(); // DELETE /mcp: the session ends on the server too
  await client.close();
}
await greet("legacy client", "legacy");
await greet("modern client", { pin: "2026-07-28" });
//#endregion

//#region stop
server.kill("SIGTERM");
const [code] = (await once(server, "exit")) as [number];
console.log(`\nSIGTERM: the server exited with code ${code}`);
console.log(`the server's stderr:\n${stderr.map((line) => `  ${line}`).join("\n")}`);
if (code !== 0) process.exitCode = 1;
//#endregion
