// Authorization-server demo: an authorization server on oidc-provider and the MCP server it protects. The demo walks
// the client's part by hand: discovery, registration, the code with PKCE, a token for the server; then the server
// serves that token and refuses three others.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { decodeJwt } from "jose";
import {
  Client,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  registerClient,
  startAuthorization,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { followToRedirectUri } from "./redirects.ts";
import { leftInGroups } from "./groups.ts";

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

const auth = await start("./auth-server.ts", ["--port", "0"]);
const server = await start("./server.ts", ["--port", "0", "--issuer", auth.url]);
process.once("exit", () => [auth.child, server.child].forEach((child) => child.kill())); // even if the demo fails
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

//#region register
// What the SDK does on a client's first 401, by hand: read the issuer's RFC 8414 metadata, then register (RFC 7591) as
// a public client with a loopback redirect, as a native app does (RFC 8252). Nothing listens there.
const metadata = await discoverAuthorizationServerMetadata(auth.url);
const redirectUri = "http://127.0.0.1/callback";
const clientMetadata = {
  client_name: "learn-mcp demo client",
  application_type: "native", // a program on the user's machine: a loopback redirect is allowed (RFC 8252)
  redirect_uris: [redirectUri],
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: "none", // a public client: a program on the user's machine cannot keep a secret
};
const clientInformation = await registerClient(auth.url, { metadata, clientMetadata });
console.log(`\nregistered at ${auth.url}/reg as a public client`);
//#endregion

//#region token
// The code flow with PKCE: the authorization URL carries a challenge, the token request its verifier.
async function tokenFor(resource: string, scope: string): Promise<string> {
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
//#endregion

//#region call
const token = await tokenFor(server.url, "mcp");
const { aud, scope, exp = 0, iat = 0 } = decodeJwt(token);
console.log(
  `code exchanged with its PKCE verifier: an access token for ${aud}, scope "${scope}", valid ${exp - iat} seconds`,
);
// 2026-07-28: any worker can serve each request, and the token rides on every one of them.
const client = new Client(
  { name: "learn-mcp-demo", version: "0.1.0" },
  { versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
const transport = new StreamableHTTPClientTransport(new URL(server.url), {
  authProvider: { token: async () => token },
});
await client.connect(transport);
console.log("connected with it");
console.log('tools/call add {"a":2,"b":40}');
const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
console.log(`-> result ${JSON.stringify(result.content)}`);
await client.close();
//#endregion

//#region refusals
// Signed by the authorization server for the registered client, but not what this server accepts.
console.log("\nrefusals, each a POST made by hand");
await send(
  "a token for another server (http://127.0.0.1:3001/mcp)",
  await tokenFor("http://127.0.0.1:3001/mcp", "mcp"),
);
await send('a token without the scope "mcp"', await tokenFor(server.url, "openid"));
// The token with its exp moved a day on: the signature no longer matches the claims.
const [header, , signature] = token.split(".");
const extended = Buffer.from(JSON.stringify({ ...decodeJwt(token), exp: exp + 86_400 }));
await send("the token with its exp moved a day later", `${header}.${extended.toString("base64url")}.${signature}`);
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
