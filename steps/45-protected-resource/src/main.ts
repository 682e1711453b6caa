// Protected-resource demo: the MCP server trusts one authorization server, here the tests' stand-in issuer, which mints
// any token on demand. A request without a token learns where to get one, a valid token is served, and five are not.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { JWTPayload } from "jose";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { leftInGroups } from "./groups.ts";
import { startIssuer } from "./test/issuer.ts";

//#region start
/** Starts a server of this step in a process group of its own; resolves once it says where it listens. */
async function start(file: string, args: string[]) {
  const program = fileURLToPath(new URL(file, import.meta.url));
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  const stderr: string[] = [];
  console.log(`$ ${file.slice(2)} ${args.join(" ")}`); // at once: a server takes a moment to start
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr }).on("line", (line) =>
      line.startsWith("listening on ") ? resolve(line.slice(13)) : stderr.push(line),
    );
    child.on("exit", (code) => reject(new Error(`${file} exited with code ${code}: ${stderr.join("\n")}`)));
  });
  console.log(`listening on ${url}`);
  return { child, url, stderr };
}

// A stand-in, not an authorization server: it publishes its metadata and key, and signs whatever the demo asks for.
const issuer = await startIssuer();
console.log(`the stand-in authorization server listens on ${issuer.url}`);
const server = await start("./server.ts", ["--port", "0", "--issuer", issuer.url]);
process.once("exit", () => server.child.kill()); // even if the demo fails
//#endregion

//#region send
// Made by hand with fetch: the status, and the challenge that tells a client what to do next.
async function send(what: string, token?: string): Promise<string> {
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(token && { authorization: `Bearer ${token}` }),
  };
  const response = await fetch(server.url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  const challenge = response.headers.get("www-authenticate") ?? "";
  console.log(`${what}\n  -> ${response.status} WWW-Authenticate: ${challenge}`);
  return challenge;
}
//#endregion

//#region discover
// A client that knows only the server's URL: the 401 names the metadata document, which names the issuer.
console.log("");
const challenge = await send("POST without a token");
const metadataUrl = /resource_metadata="(.*?)"/.exec(challenge)?.[1] ?? "";
console.log(`GET ${metadataUrl}\n  -> ${JSON.stringify(await (await fetch(metadataUrl)).json())}`);
//#endregion

//#region call
// What an authorization server would issue for this server: its URL as the audience, the scope "mcp".
const token = await issuer.mint({ aud: server.url });
// 2026-07-28: any worker can serve each request, and the token rides on every one of them.
const client = new Client(
  { name: "learn-mcp-demo", version: "0.1.0" },
  { versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
const transport = new StreamableHTTPClientTransport(new URL(server.url), {
  authProvider: { token: async () => token },
});
await client.connect(transport);
console.log(`\nconnected with a token for ${server.url}, scope "mcp"`);
console.log('tools/call add {"a":2,"b":40}');
const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
console.log(`-> result ${JSON.stringify(result.content)}`);
await client.close();
//#endregion

//#region refusals
const now = Math.floor(Date.now() / 1000);
const mint = (claims: JWTPayload, options?: { forged?: boolean }) =>
  issuer.mint({ aud: server.url, ...claims }, options);
console.log("\nrefusals, each a POST made by hand");
await send("a token that expired a minute ago", await mint({ iat: now - 360, exp: now - 60 }));
await send("a token signed by a key the issuer never published", await mint({}, { forged: true }));
await send("a token for another server (http://127.0.0.1:3001/mcp)", await mint({ aud: "http://127.0.0.1:3001/mcp" }));
await send("a token issued a day from now", await mint({ iat: now + 86_400, exp: now + 86_700 }));
await send('a token without the scope "mcp"', await mint({ scope: "openid" }));
//#endregion

//#region stop
const exited = once(server.child, "exit") as Promise<[number]>;
server.child.kill("SIGTERM");
const [code] = await exited;
const left = await leftInGroups([server.child.pid!]);
await issuer.close();
console.log(
  `\nSIGTERM: the server exited with code ${code}; ` +
    `${left.length === 0 ? "no process left" : `still running: ${left.join(", ")}`}`,
);
if (code !== 0 || left.length > 0) process.exitCode = 1;
//#endregion
