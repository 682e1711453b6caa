// An OAuth 2.1 authorization server for the demo, on oidc-provider: `auth-server.ts [--port N] [--token-ttl SECONDS]`.
// Nothing of OAuth is written here; this file only configures the library and approves every request without asking.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet } from "jose";
import type { Configuration } from "oidc-provider";
import { checkLocal } from "./local-only.ts";

//#region arguments
/** The --port and --token-ttl options; a bad one prints the usage line and exits. */
// tokenTtl: the access tokens' lifetime in seconds, 300 unless told; a short one lets a demo show a refresh.
function readArguments(): { port: number; tokenTtl: number } {
  try {
    const options = {
      port: { type: "string", default: "0" },
      "token-ttl": { type: "string", default: "300" },
    } as const;
    const { values } = parseArgs({ options });
    const [port, tokenTtl] = [Number(values.port), Number(values["token-ttl"])];
    if (Number.isInteger(port) && port >= 0 && port < 65536 && Number.isInteger(tokenTtl) && tokenTtl > 0)
      return { port, tokenTtl };
  } catch {
    // an unknown option, or one without its value
  }
  console.error("usage: auth-server.ts [--port N] [--token-ttl SECONDS]");
  process.exit(64);
}
const { port, tokenTtl } = readArguments();
//#endregion

//#region quiet
// oidc-provider prints notices meant for whoever deploys it: "Unsupported runtime" on Node 20 (it supports Node 22 and
// later; this flow works on 20, checked), an in-memory store (on purpose here), default settings it wants chosen.
// All are expected in a demo, so they are dropped; it must happen before the library loads, as it warns while loading.
for (const level of ["warn", "info"] as const) {
  const print = console[level];
  console[level] = (...args: unknown[]) => void (String(args[0]).startsWith("oidc-provider ") || print(...args));
}
const { default: Provider, errors } = await import("oidc-provider");
//#endregion

//#region configuration
const USER = "demo-user"; // the one account; a real server would log its user in here
const MCP_SCOPE = "mcp";

// A key pair made at each start: tokens from an earlier run, or signed by anyone else, do not verify. Its id (kid) is
// its RFC 7638 thumbprint, which names it in each token's header.
async function signingKeys(): Promise<JSONWebKeySet> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = await exportJWK(privateKey);
  return { keys: [{ ...jwk, kid: await calculateJwkThumbprint(jwk), alg: "RS256", use: "sig" }] };
}

function configuration(jwks: Configuration["jwks"]): Configuration {
  return {
    jwks,
    cookies: { keys: [randomBytes(32).toString("hex")] }, // signed, so that a browser cannot forge its session
    scopes: ["openid", "offline_access", MCP_SCOPE],
    responseTypes: ["code"], // OAuth 2.1 keeps only the authorization code flow
    features: {
      devInteractions: { enabled: false }, // its login form needs a browser: approve() below replaces it
      registration: { enabled: true, issueRegistrationAccessToken: false }, // dynamic client registration, RFC 7591
      // RFC 8707: a client names the resource it wants a token for; the token is a JWT with that audience.
      resourceIndicators: {
        enabled: true,
        // A real server lists the resource servers it knows; this one accepts any URL on this machine.
        getResourceServerInfo: (_ctx, resource) => {
          if (new URL(resource).hostname !== "127.0.0.1") throw new errors.InvalidTarget();
          return { scope: MCP_SCOPE, audience: resource, accessTokenFormat: "jwt", accessTokenTTL: tokenTtl };
        },
      },
    },
  };
}
//#endregion

//#region approve
// Where a real server shows a login page and a consent screen, this one grants what was asked, for USER, at once.
async function approve(provider: InstanceType<typeof Provider>, request: IncomingMessage, response: ServerResponse) {
  const { params } = await provider.interactionDetails(request, response);
  const scope = String(params.scope ?? "");
  const grant = new provider.Grant({ accountId: USER, clientId: String(params.client_id) });
  // All that was asked for: "mcp" counts as an OIDC scope too, as it is listed in `scopes` for registration to accept
  // it.
  grant.addOIDCScope(scope);
  if (typeof params.resource === "string") grant.addResourceScope(params.resource, scope);
  console.error(`[auth] approved without asking: ${USER}, scope "${scope}", resource ${params.resource}`);
  const result = { login: { accountId: USER }, consent: { grantId: await grant.save() } };
  await provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false });
}
//#endregion

//#region serve
// Listen first: the issuer is this server's own URL, which the port decides.
const http = createServer();
await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
const provider = new Provider(issuer, configuration(await signingKeys()));
// The client hears only "invalid_grant" when a token request is refused; the reason is for this server's log.
provider.on("grant.error", (_ctx, error) =>
  console.error(`[auth] token request refused: ${error.error_detail ?? error.message}`),
);
// OAuth 2.1 lets a server either refuse a request that names no scope or give it a default: this one asks for "mcp".
provider.use(async (ctx, next) => {
  if (ctx.path === "/auth" && ctx.query.scope === undefined) ctx.query = { ...ctx.query, scope: MCP_SCOPE };
  await next();
});
const callback = provider.callback();
// This server approves without asking, so a web page must not reach it through DNS rebinding: the local-only check
// comes first. A target URL cannot parse gets 400 here, as the library would answer it with 500 and a stack trace.
const refuse = (response: ServerResponse, status: number, description: string) =>
  void response
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ error: "invalid_request", error_description: description }));
http.on("request", (request: IncomingMessage, response: ServerResponse) => {
  const local = checkLocal(request);
  if (local) return refuse(response, local.status, local.message);
  if (!request.url?.startsWith("/") || !URL.canParse(request.url, issuer))
    return refuse(response, 400, "the request-target is not a path");
  if (!request.url.startsWith("/interaction/")) return void callback(request, response);
  approve(provider, request, response).catch((error: Error) => response.writeHead(400).end(error.message));
});
//#endregion

//#region stop
// Started by another program, stop with it: once the parent is gone, the process is handed to another parent.
const parent = process.ppid;
const watch = setInterval(() => process.ppid !== parent && stop("parent gone"), 500).unref();
/** Stops the authorization server and its watch on the parent process. */
function stop(reason: string): void {
  clearInterval(watch);
  console.error(`[auth] ${reason}: closing`);
  http.close();
  http.closeAllConnections();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, stop);
//#endregion

// Said last, with every handler in place: whoever started this program may use it, or signal it, at once.
console.error(`listening on ${issuer}`);
