// auth-server.ts, on oidc-provider, as a client meets it: dynamic registration, the code with PKCE for a JWT minted for
// one resource, the requests it refuses, and how it starts and stops. server.ts is started too, to take its tokens.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/client";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followToRedirectUri } from "./redirects.ts";
import { stopAll, programOf, start, tsx, type Started } from "./test/programs.ts";

const REDIRECT_URI = "http://127.0.0.1/callback";
// A public client with a loopback redirect, as the demo registers.
const CLIENT = {
  client_name: "test",
  redirect_uris: [REDIRECT_URI],
  grant_types: ["authorization_code"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
};

let auth: Started;
let server: Started;
beforeAll(async () => {
  auth = await start("./auth-server.ts", ["--port", "0"]);
  server = await start("./server.ts", ["--port", "0", "--issuer", auth.url]);
});
afterAll(stopAll);

/** Registers CLIENT by hand and returns its client_id. */
async function register(): Promise<string> {
  const registration = await fetch(`${auth.url}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(CLIENT),
  });
  return ((await registration.json()) as { client_id: string }).client_id;
}

describe("the authorization server", () => {
  it("registers a public client and trades its code and PKCE verifier for a JWT for the server named", async () => {
    const metadata = await discoverAuthorizationServerMetadata(auth.url);
    const clientInformation = await registerClient(auth.url, { metadata, clientMetadata: CLIENT });
    const resource = new URL(server.url);
    const { authorizationUrl, codeVerifier } = await startAuthorization(auth.url, {
      metadata,
      clientInformation,
      redirectUrl: REDIRECT_URI,
      scope: "mcp",
      resource,
    });
    const callback = await followToRedirectUri(authorizationUrl, REDIRECT_URI);
    expect([callback.get("code"), callback.get("iss")]).toEqual([expect.any(String), auth.url]);
    const tokens = await exchangeAuthorization(auth.url, {
      metadata,
      clientInformation,
      authorizationCode: callback.get("code")!,
      iss: callback.get("iss") ?? undefined, // RFC 9207: the SDK checks the response came from this issuer
      codeVerifier,
      redirectUri: REDIRECT_URI,
      resource,
    });
    expect(decodeProtectedHeader(tokens.access_token).typ).toBe("at+jwt");
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      iss: auth.url,
      aud: server.url,
      scope: "mcp",
      sub: "demo-user",
      client_id: clientInformation.client_id,
    });
    expect(auth.stderr).toContain(`[auth] approved without asking: demo-user, scope "mcp", resource ${server.url}`);

    // The server it was minted for takes it: ping answers 200, not 401.
    const ping = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${tokens.access_token}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    expect(ping.status).not.toBe(401);
    expect(ping.headers.get("www-authenticate")).toBeNull();
  });

  it("refuses an authorization request without PKCE", async () => {
    const url = new URL("/auth", auth.url);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: await register(),
      redirect_uri: REDIRECT_URI,
      scope: "mcp",
      resource: server.url,
    }).toString();
    const callback = await followToRedirectUri(url, REDIRECT_URI);
    expect([callback.get("error"), callback.get("error_description"), callback.has("code")]).toEqual([
      "invalid_request",
      "Authorization Server policy requires PKCE to be used for this request",
      false,
    ]);
  });

  it("refuses a token for a resource on another machine", async () => {
    const verifier = randomBytes(32).toString("base64url");
    const url = new URL("/auth", auth.url);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: await register(),
      redirect_uri: REDIRECT_URI,
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
      scope: "mcp",
      resource: "https://example.com/mcp",
    }).toString();
    const callback = await followToRedirectUri(url, REDIRECT_URI);
    expect([callback.get("error"), callback.has("code")]).toEqual(["invalid_target", false]);
  });

  it("gives an authorization request that names no scope the default one, mcp", async () => {
    const client_id = await register();
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const url = new URL("/auth", auth.url);
    const request = {
      response_type: "code",
      client_id,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: server.url,
    };
    url.search = new URLSearchParams(request).toString();
    const code = (await followToRedirectUri(url, REDIRECT_URI)).get("code");
    expect(code).toEqual(expect.any(String));
    const form = {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id,
      resource: server.url,
    };
    const token = await fetch(`${auth.url}/token`, { method: "POST", body: new URLSearchParams(form) });
    const { access_token, scope } = (await token.json()) as { access_token: string; scope: string };
    expect([token.status, scope, decodeJwt(access_token).aud]).toEqual([200, "mcp", server.url]);
    expect(auth.stderr).toContain(`[auth] approved without asking: demo-user, scope "mcp", resource ${server.url}`);
  });
});

describe("starting and stopping the authorization server", () => {
  it("refuses bad arguments with its usage and exit 64", async () => {
    const runs = [
      ["--port", "http"],
      ["--token-ttl", "0"],
      ["--issuer", "x"],
    ].map(async (args) => {
      const run = await start("./auth-server.ts", args);
      return [(await run.exited)[0], run.stderr];
    });
    for (const result of await Promise.all(runs))
      expect(result).toEqual([64, ["usage: auth-server.ts [--port N] [--token-ttl SECONDS]"]]);
  });

  it("refuses a Host or a request-target it must not serve, and keeps serving", async () => {
    const raw = (head: string) =>
      new Promise<number>((resolve) => {
        const socket = connect(Number(new URL(auth.url).port), "127.0.0.1", () =>
          socket.write(`${head}\r\nconnection: close\r\n\r\n`),
        );
        let answer = "";
        socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
        socket.on("error", () => {}).on("close", () => resolve(Number(answer.slice(9, 12))));
      });
    const metadata = (host: string) => raw(`GET /.well-known/oauth-authorization-server HTTP/1.1\r\nhost: ${host}`);
    const hosts = [
      "evil.example",
      "evil.com@localhost",
      "localhost.",
      "127.0.0.1:99999",
      "localhost\r\nhost: evil.example",
    ];
    expect(await Promise.all(hosts.map(metadata))).toEqual([403, 403, 403, 403, 400]);
    const targets = ["//%", "//[", "//:99999", "http://[", "*"].map((target) =>
      raw(`GET ${target} HTTP/1.1\r\nhost: 127.0.0.1`),
    );
    expect(await Promise.all(targets)).toEqual([400, 400, 400, 400, 400]);
    expect([await metadata(new URL(auth.url).host), auth.child.exitCode]).toEqual([200, null]);
  });

  it("stops on SIGTERM with exit 0", async () => {
    const own = await start("./auth-server.ts", ["--port", "0"]);
    own.child.kill("SIGTERM");
    expect([(await own.exited)[0], own.stderr.at(-1)]).toEqual([0, "[auth] SIGTERM: closing"]);
  });

  // A parent that starts it, waits until it listens, and exits: the server must notice that it was left behind.
  it("stops when the program that started it goes away", async () => {
    const parent = `
      const child = require("node:child_process").spawn(process.execPath, process.argv.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
      child.stderr.on("data", (chunk) => String(chunk).startsWith("listening on ") && (console.log(child.pid), process.exit(0)));`;
    const run = spawn(
      process.execPath,
      ["-e", parent, "--", "--import", tsx, programOf("./auth-server.ts"), "--port", "0"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    run.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    await once(run, "close"); // not "exit": "close" comes once stdout has ended, with the pid in it
    const pid = Number(output);
    expect(pid).toBeGreaterThan(0); // process.kill(0) would signal this test's own process group
    const alive = () => {
      try {
        return process.kill(pid, 0);
      } catch {
        return false;
      }
    };
    const since = Date.now();
    while (alive() && Date.now() - since < 5000) await sleep(100);
    const stillAlive = alive();
    if (stillAlive) process.kill(pid, "SIGKILL");
    expect(stillAlive).toBe(false);
  });
});
