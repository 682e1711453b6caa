// Authorization demo: an authorization server, the MCP server it protects, and a client without a browser that gets a
// token through OAuth 2.1, uses it, has it refreshed, and then five requests the server refuses.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { decodeJwt } from "jose";
import {
  Client,
  exchangeAuthorization,
  startAuthorization,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type FetchLike,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { HeadlessOAuthClient } from "./oauth-client.ts";
import { followToRedirectUri } from "./redirects.ts";
import { leftInGroups } from "./groups.ts";
import { progressBar } from "./progress-bar.ts";

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

const TOKEN_TTL = 5; // seconds: short, so that the demo can wait for a token to expire
const auth = await start("./auth-server.ts", ["--port", "0", "--token-ttl", String(TOKEN_TTL)]);
const server = await start("./server.ts", ["--port", "0", "--issuer", auth.url]);
process.once("exit", () => [auth.child, server.child].forEach((child) => child.kill())); // even if the demo fails
//#endregion

//#region connect
// What the client sees of OAuth: each 401 from the server, and each token set the SDK saves (its claims, never the
// token).
const show401: FetchLike = async (url, init) => {
  const response = await fetch(url, init);
  const challenge = response.headers.get("www-authenticate") ?? "";
  if (response.status === 401) console.log(`  <- 401: ${/error_description="(.*?)"/.exec(challenge)?.[1]}`);
  return response;
};
const saved: StoredOAuthTokens[] = [];
const oauth = new HeadlessOAuthClient((tokens) => {
  const { aud, scope, exp = 0, iat = 0 } = decodeJwt(tokens.access_token);
  const refresh = tokens.refresh_token ? ", and a refresh token" : "";
  console.log(
    `  ${saved.length === 0 ? "tokens" : "refreshed"}: an access token ` +
      `for ${aud}, scope "${scope}", valid ${exp - iat} seconds${refresh}`,
  );
  saved.push(tokens);
});

// The first attempt ends at the authorization server's redirect: the SDK throws once the provider holds the code.
async function connect(again = false): Promise<Client> {
  // 2026-07-28: any worker can serve each request, and the token rides on every one of them.
  const client = new Client(
    { name: "learn-mcp-demo", version: "0.1.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: oauth, fetch: show401 });
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    if (again || !(error instanceof UnauthorizedError) || oauth.callback === undefined) throw error;
    console.log(`  redirected back with a code (the demo's authorization server approves without asking)`);
    await transport.finishAuth(oauth.callback); // code and PKCE verifier for the tokens
    return connect(true); // on a new transport, with the token
  }
}

console.log("\nconnect");
const client = await connect();
console.log(`connected: ${client.getProtocolEra()} era, server ${client.getServerVersion()?.name}\n`);
//#endregion

// On a terminal, the seconds left of a wait; in a pipe, nothing, so that recorded output stays the same.
async function countDown(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (process.stdout.isTTY) process.stdout.write(`\r  ${Math.ceil((until - Date.now()) / 1000)} s left `);
    await sleep(Math.min(250, until - Date.now()));
  }
  if (process.stdout.isTTY) process.stdout.write("\r\x1b[K");
}

//#region calls
async function add(): Promise<void> {
  console.log('tools/call add {"a":2,"b":40}');
  const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
  console.log(`-> result ${JSON.stringify(result.content)}`);
}
await add();
const bar = progressBar();
client.setNotificationHandler("notifications/progress", ({ params }) => bar.update(params));
bar.print('tools/call count_slowly {"to":3}');
const counted = await client.callTool({
  name: "count_slowly",
  arguments: { to: 3 },
  _meta: { progressToken: "count" },
});
bar.print(`-> result ${JSON.stringify(counted.content)}\n`);

// The SDK refreshes a token when the server refuses it: wait until the first one has expired, and call again.
const first = saved[0].access_token;
const { exp = 0 } = decodeJwt(first);
console.log(`waiting for the access token to expire (${TOKEN_TTL} seconds)`);
await countDown(exp * 1000 + 1000 - Date.now()); // exp counts whole seconds
await add();
await client.close();
//#endregion

//#region refusals
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

// Signed by the authorization server for the registered client, but not what this server accepts.
async function tokenFor(resource: string, scope: string): Promise<string> {
  const metadata = oauth.discoveryState()?.authorizationServerMetadata;
  const [clientInformation, redirectUri] = [oauth.clientInformation()!, oauth.redirectUrl];
  const { authorizationUrl, codeVerifier } = await startAuthorization(auth.url, {
    metadata,
    clientInformation,
    redirectUrl: redirectUri,
    scope,
    resource: new URL(resource),
  });
  const callback = await followToRedirectUri(authorizationUrl, redirectUri);
  const authorizationCode = callback.get("code")!;
  const tokens = await exchangeAuthorization(auth.url, {
    metadata,
    clientInformation,
    authorizationCode,
    iss: callback.get("iss") ?? undefined,
    codeVerifier,
    redirectUri,
    resource: new URL(resource),
  });
  return tokens.access_token;
}
// The expired token with its exp moved a day on: the signature no longer matches the claims.
const [header, , signature] = first.split(".");
const extended = Buffer.from(JSON.stringify({ ...decodeJwt(first), exp: exp + 86_400 })).toString("base64url");

console.log("\nrefusals, each a POST made by hand");
await send("no token");
await send("the first access token, expired", first);
await send("the same token with its exp moved a day later", `${header}.${extended}.${signature}`);
await send(
  "a token for another server (http://127.0.0.1:3001/mcp)",
  await tokenFor("http://127.0.0.1:3001/mcp", "mcp"),
);
await send('a token without the scope "mcp"', await tokenFor(server.url, "offline_access"));
//#endregion

//#region stop
const exited = [auth, server].map(({ child }) => once(child, "exit") as Promise<[number]>);
for (const { child } of [server, auth]) child.kill("SIGTERM");
const codes = (await Promise.all(exited)).map(([code]) => code);
const left = await leftInGroups([auth.child.pid!, server.child.pid!]);
console.log(
  `\nSIGTERM: the servers exited with codes ${codes.join(" and ")}; ` +
    `${left.length === 0 ? "no process left" : `still running: ${left.join(", ")}`}`,
);
console.log(`the authorization server's stderr:\n${auth.stderr.map((line) => `  ${line}`).join("\n")}`);
if (codes.some((code) => code !== 0) || left.length > 0) process.exitCode = 1;
//#endregion
