// The whole flow against the real authorization server (auth-server.ts, on oidc-provider) and server.ts: the 401,
// discovery, dynamic registration, the code with PKCE, a JWT for this server, and the SDK's refresh once it expires.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type FetchLike,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followToRedirectUri, HeadlessOAuthClient } from "./oauth-client.ts";
import { killAll, programOf, start, tsx, type Started } from "./test/programs.ts";

// The 2026-07-28 era: any of the server's workers can answer each request (chapter 26).
const MODERN = { versionNegotiation: { mode: { pin: "2026-07-28" } } } as const;

// Long enough for a connection to start with a valid token even on a loaded machine: when a token expires while the
// client's POST and its GET stream are both in flight, the SDK refreshes twice with the same refresh token, and the
// authorization server, which rotates them, takes the second use for a theft and revokes the grant.
const TOKEN_TTL = 5;
/** The browser-less client, which records each authorization URL it is sent to. */
class RecordingClient extends HeadlessOAuthClient {
  readonly authorizationUrls: URL[] = [];
  override async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    await super.redirectToAuthorization(authorizationUrl);
  }
}

let auth: Started;
let server: Started;
beforeAll(async () => {
  auth = await start("./auth-server.ts", ["--port", "0", "--token-ttl", String(TOKEN_TTL)]);
  server = await start("./server.ts", ["--port", "0", "--issuer", auth.url]);
});
afterAll(killAll);

describe("the SDK client and the authorization server, end to end", () => {
  it("connects through the authorization code flow, calls a tool, and has the expired token refreshed", async () => {
    const saved: StoredOAuthTokens[] = [];
    const oauth = new RecordingClient((tokens) => void saved.push(tokens));
    const requests: string[] = []; // every request the transport and the SDK's OAuth code make, with its answer
    const recording: FetchLike = async (url, init) => {
      const response = await fetch(url, init);
      const grant = init?.body instanceof URLSearchParams ? ` ${init.body.get("grant_type")}` : "";
      requests.push(
        `${init?.method ?? "GET"} ${new URL(url).host === new URL(auth.url).host ? "auth" : "mcp"}${new URL(url).pathname}${grant} ${response.status}`,
      );
      return response;
    };
    const transport = () =>
      new StreamableHTTPClientTransport(new URL(server.url), { authProvider: oauth, fetch: recording });
    const approvals = () => auth.stderr.filter((line) => line.startsWith("[auth] approved without asking")).length;

    // 1. Refused, discovered, registered, authorized: the SDK throws once the provider holds the code.
    const first = transport();
    await expect(new Client({ name: "test", version: "0" }, MODERN).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(requests.splice(0)).toEqual([
      "POST mcp/mcp 401",
      "GET mcp/.well-known/oauth-protected-resource/mcp 200",
      "GET auth/.well-known/oauth-authorization-server 200",
      "POST auth/reg 201",
    ]);
    const [authorizationUrl] = oauth.authorizationUrls;
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      response_type: "code",
      client_id: oauth.clientInformation()!.client_id,
      code_challenge_method: "S256",
      redirect_uri: "http://127.0.0.1/callback",
      scope: "mcp offline_access",
      resource: server.url,
    });
    expect([oauth.callback?.get("code"), oauth.callback?.get("iss"), approvals()]).toEqual([
      expect.any(String),
      auth.url,
      1,
    ]);

    // 2. The code for tokens: a JWT for this server, from this issuer, with the scope mcp; and a refresh token.
    await first.finishAuth(oauth.callback!);
    expect(requests.splice(0)).toEqual(["POST auth/token authorization_code 200"]);
    const claims = decodeJwt(saved[0].access_token);
    expect(claims).toMatchObject({
      iss: auth.url,
      aud: server.url,
      scope: "mcp",
      sub: "demo-user",
      client_id: oauth.clientInformation()!.client_id,
    });
    expect([claims.exp! - claims.iat!, typeof saved[0].refresh_token]).toEqual([TOKEN_TTL, "string"]);

    // 3. Connected with the token.
    const client = new Client({ name: "test", version: "0" }, MODERN);
    await client.connect(transport());
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ type: "text", text: "42" }],
    });
    expect(requests.splice(0).filter((request) => request.endsWith(" 401"))).toEqual([]);

    // 4. Once the token has expired, the server refuses it and the SDK refreshes it, without a new authorization.
    await sleep(claims.exp! * 1000 + 1000 - Date.now());
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ type: "text", text: "42" }],
    });
    expect(requests.splice(0)).toEqual(["POST mcp/mcp 401", "POST auth/token refresh_token 200", "POST mcp/mcp 200"]);
    expect([saved.length, approvals(), oauth.authorizationUrls.length]).toEqual([2, 1, 1]);
    expect(saved[1].access_token).not.toBe(saved[0].access_token);
    expect(auth.stderr.filter((line) => line.startsWith("[auth] token request refused"))).toEqual([]);
    expect(decodeJwt(saved[1].access_token)).toMatchObject({ aud: server.url, scope: "mcp" });
    await client.close();
  });

  it("refuses an authorization request without PKCE; the client refuses a response without its state", async () => {
    const oauth = new HeadlessOAuthClient();
    const registration = await fetch(`${auth.url}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(oauth.clientMetadata),
    });
    const { client_id } = (await registration.json()) as { client_id: string };
    const url = new URL("/auth", auth.url);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id,
      redirect_uri: oauth.redirectUrl,
      scope: "mcp",
      resource: server.url,
    }).toString();
    const callback = await followToRedirectUri(url, oauth.redirectUrl);
    expect([callback.get("error"), callback.get("error_description"), callback.has("code")]).toEqual([
      "invalid_request",
      "Authorization Server policy requires PKCE to be used for this request",
      false,
    ]);
    await expect(oauth.redirectToAuthorization(url)).rejects.toThrow(
      "the authorization response carries another state",
    );
    expect(oauth.callback).toBeUndefined();
  });

  it("gives an authorization request that names no scope the default one, mcp", async () => {
    const oauth = new HeadlessOAuthClient();
    const registration = await fetch(`${auth.url}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(oauth.clientMetadata),
    });
    const { client_id } = (await registration.json()) as { client_id: string };
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const url = new URL("/auth", auth.url);
    const request = {
      response_type: "code",
      client_id,
      redirect_uri: oauth.redirectUrl,
      code_challenge: challenge,
      code_challenge_method: "S256",
      resource: server.url,
    };
    url.search = new URLSearchParams(request).toString();
    const code = (await followToRedirectUri(url, oauth.redirectUrl)).get("code");
    expect(code).toEqual(expect.any(String));
    const form = {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: oauth.redirectUrl,
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
    await once(run, "exit");
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
