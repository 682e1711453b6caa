// The SDK's whole flow, through the browser-less client, against the real authorization server and server.ts: the
// 401, discovery, dynamic registration, the code with PKCE, a JWT for this server, and the refresh once it expires.
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
import { HeadlessOAuthClient } from "./oauth-client.ts";
import { stopAll, start, type Started } from "./test/programs.ts";

// The 2026-07-28 era: any of the server's workers can answer each request (the cluster step).
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
afterAll(stopAll);

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

  it("refuses an authorization response that does not carry the state it sent", async () => {
    const oauth = new HeadlessOAuthClient();
    const registration = await fetch(`${auth.url}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(oauth.clientMetadata),
    });
    const { client_id } = (await registration.json()) as { client_id: string };
    // A request this client never made: it carries no state, and the server's answer (an error) none either.
    const url = new URL("/auth", auth.url);
    url.search = new URLSearchParams({ response_type: "code", client_id, redirect_uri: oauth.redirectUrl }).toString();
    await expect(oauth.redirectToAuthorization(url)).rejects.toThrow(
      "the authorization response carries another state",
    );
    expect(oauth.callback).toBeUndefined();
  });
});
