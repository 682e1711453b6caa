// server.ts as a client meets it: a separate process on a free port that trusts a stand-in authorization server, whose
// keys the test holds, so that any token can be minted. Each refusal is checked to the byte of its challenge, then
// the SDK-over-HTTP step's checks run again with a valid token: authorization must not change what the server did
// before.
import { once } from "node:events";
import { createServer, request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import type { JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLOCK_TOLERANCE_SECONDS } from "./protected-resource.ts";
import { startIssuer, type Issuer } from "./test/issuer.ts";
import { testHostileRequests } from "./test/hostile-requests.ts";
import { stopAll, start, type Started } from "./test/programs.ts";

type Mode = NonNullable<ClientOptions["versionNegotiation"]>["mode"];
const startServer = (args: string[]) => start("./server.ts", args);

/** The SDK client, sending `token` as a bearer token with every request. */
async function connect(url: string, mode: Mode, token: string): Promise<Client> {
  const client = new Client({ name: "test", version: "0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: { token: async () => token } }));
  return client;
}

/** node's http module sends Host, Origin and Content-Length exactly as given, which fetch will not. */
function raw(url: string, method: string, headers: OutgoingHttpHeaders, body?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

let issuer: Issuer;
let server: Started;
let token: string; // valid: this issuer, this audience, scope "mcp"
beforeAll(async () => {
  issuer = await startIssuer();
  server = await startServer(["--port", "0", "--workers", "1", "--issuer", issuer.url]);
  token = await issuer.mint({ aud: server.url });
});
afterAll(async () => {
  await stopAll();
  await issuer.close();
});

const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

describe("a request to /mcp needs a valid token from the issuer, for this server, with the scope mcp", () => {
  const challenge = (error: string, description: string) =>
    `Bearer error="${error}", error_description="${description}", scope="mcp", resource_metadata="${server.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")}"`;
  const now = () => Math.floor(Date.now() / 1000);
  const bearer = (claims: JWTPayload, options?: Parameters<Issuer["mint"]>[1]) => async () =>
    `Bearer ${await issuer.mint({ aud: server.url, ...claims }, options)}`;
  it.each<[string, () => Promise<string | undefined>, number, string]>([
    ["no Authorization header", async () => undefined, 401, "Missing Authorization header"],
    [
      "another scheme",
      async () => `Basic ${Buffer.from("user:password").toString("base64")}`,
      401,
      "Invalid Authorization header format, expected 'Bearer TOKEN'",
    ],
    ["a token that is not a JWT", async () => "Bearer not-a-jwt", 401, "Invalid Compact JWS"],
    [
      "a bad signature (the issuer's kid, another key)",
      bearer({}, { forged: true }),
      401,
      "signature verification failed",
    ],
    ["an expired token", bearer({ iat: now() - 120, exp: now() - 60 }), 401, "exp claim timestamp check failed"],
    ["a token without exp", bearer({ exp: undefined }), 401, "missing required exp claim"],
    [
      "a token issued a day from now (iat)",
      bearer({ iat: now() + 86_400 }),
      401,
      "iat claim timestamp check failed (issued in the future)",
    ],
    ["a token without sub, the user it speaks for", bearer({ sub: undefined }), 401, "missing required sub claim"],
    [
      "a token for another resource (RFC 8707)",
      bearer({ aud: "http://127.0.0.1:3001/mcp" }),
      401,
      "unexpected aud claim value",
    ],
    ["a token from another issuer", bearer({ iss: "http://127.0.0.1:3002" }), 401, "unexpected iss claim value"],
    ["an ID token (typ JWT), not an access token", bearer({}, { typ: "JWT" }), 401, "unexpected typ JWT header value"],
    ["a token without the scope mcp", bearer({ scope: "openid profile" }), 403, "Insufficient scope"],
    ["a token without any scope", bearer({ scope: undefined }), 403, "Insufficient scope"],
  ])("%s", async (_name, authorization, status, description) => {
    const header = await authorization();
    const answer = await raw(server.url, "POST", { ...json, ...(header && { authorization: header }) }, ping);
    const error = status === 401 ? "invalid_token" : "insufficient_scope";
    expect([answer.status, answer.headers["www-authenticate"]]).toEqual([status, challenge(error, description)]);
    expect(JSON.parse(answer.body)).toEqual({ error, error_description: description });
  });

  it("serves its protected-resource metadata (RFC 9728) to anyone, and the issuer's metadata beside it", async () => {
    const document = await raw(server.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"), "GET", {});
    expect([document.status, JSON.parse(document.body)]).toEqual([
      200,
      {
        resource: server.url,
        authorization_servers: [issuer.url],
        scopes_supported: ["mcp"],
        resource_name: "learn-mcp tutorial server",
      },
    ]);
    const copy = await raw(server.url.replace("/mcp", "/.well-known/oauth-authorization-server"), "GET", {});
    expect([copy.status, JSON.parse(copy.body)]).toEqual([200, issuer.metadata]);
  });

  it("answers 404 off its paths, token or not", async () => {
    for (const authorization of [undefined, `Bearer ${token}`]) {
      const answer = await raw(
        server.url.replace("/mcp", "/other"),
        "POST",
        { ...json, ...(authorization && { authorization }) },
        ping,
      );
      expect(answer.status).toBe(404);
    }
  });
});

describe("a token's clock and owner", () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } },
  });
  const as = async (claims: JWTPayload) => ({
    ...json,
    authorization: `Bearer ${await issuer.mint({ aud: server.url, ...claims })}`,
  });

  it("accepts a token issued up to CLOCK_TOLERANCE_SECONDS ahead of this clock", async () => {
    const answer = await raw(
      server.url,
      "POST",
      await as({ iat: Math.floor(Date.now() / 1000) + CLOCK_TOLERANCE_SECONDS - 10 }),
      initialize,
    );
    expect(answer.status).toBe(200);
  });

  it("keeps a 2025 session to whoever opened it: another's token gets 404, the owner's still works", async () => {
    const opened = await raw(server.url, "POST", await as({ sub: "alice" }), initialize);
    const session = { "mcp-session-id": String(opened.headers["mcp-session-id"]) };
    expect([opened.status, session["mcp-session-id"]]).toEqual([200, expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    const inSession = async (claims: JWTPayload, method = "POST") =>
      (await raw(server.url, method, { ...(await as(claims)), ...session }, method === "POST" ? ping : undefined))
        .status;
    expect(await inSession({ sub: "bob" })).toBe(404);
    expect(await inSession({ sub: "alice", client_id: "another-client" })).toBe(404);
    expect(await inSession({ sub: "bob" }, "DELETE")).toBe(404);
    expect(await inSession({ sub: "alice" })).toBe(200);
    expect(await inSession({ sub: "alice" }, "DELETE")).toBe(200);
    expect(await inSession({ sub: "alice" })).toBe(404);
  });
});

testHostileRequests(() => server.url, { headers: () => [`authorization: Bearer ${token}`] });

describe("with a valid token, the SDK client reaches it in every mode", () => {
  it.each([
    ["legacy", "legacy", "legacy", "2025-11-25"],
    ["auto", "auto", "modern", "2026-07-28"],
    ["pinned", { pin: "2026-07-28" }, "modern", "2026-07-28"],
  ] as const)("%s: lists the tools and adds 2 + 40", async (_label, mode, era, version) => {
    const client = await connect(server.url, mode, token);
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual([era, version]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "add",
      "count_slowly",
      "greet",
      "post_message",
    ]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ type: "text", text: "42" }],
    });
    await client.close();
  });

  it.each([
    ["legacy", "legacy"],
    ["modern", { pin: "2026-07-28" }],
  ] as const)("%s: count_slowly streams each progress step before its result", async (_label, mode) => {
    const client = await connect(server.url, mode, token);
    const seen: number[] = [];
    client.setNotificationHandler("notifications/progress", ({ params }) => void seen.push(params.progress));
    const result = await client.callTool({ name: "count_slowly", arguments: { to: 3 }, _meta: { progressToken: "t" } });
    expect(seen).toEqual([1, 2, 3]);
    expect(result).toMatchObject({ content: [{ type: "text", text: "Counted to 3." }] });
    await client.close();
  });
});

describe("bad requests get the status the specification names, and the server keeps serving", () => {
  // The guards answer before the token is read: these two carry none. The others carry a valid one.
  const auth = () => ({ ...json, authorization: `Bearer ${token}` });
  it.each([
    [
      "a foreign Host, no token",
      "POST",
      () => ({ ...json, host: "evil.example" }),
      ping,
      403,
      -32000,
      "Invalid Host: evil.example",
    ],
    [
      "a foreign Origin, no token",
      "POST",
      () => ({ ...json, origin: "https://evil.example" }),
      ping,
      403,
      -32000,
      "Invalid Origin: https://evil.example",
    ],
    [
      "text/plain",
      "POST",
      () => ({ ...auth(), "content-type": "text/plain" }),
      ping,
      415,
      -32000,
      "Content-Type must be application/json",
    ],
    [
      "an Accept without text/event-stream",
      "POST",
      () => ({ ...auth(), accept: "application/json" }),
      ping,
      406,
      -32000,
      "must accept both",
    ],
    ["malformed JSON", "POST", auth, '{"jsonrpc":', 400, -32700, "Parse error"],
    [
      "a 5 MiB body, announced",
      "POST",
      () => ({ ...auth(), "content-length": String(5 * 1024 * 1024) }),
      undefined,
      413,
      -32000,
      "must not exceed 4194304 bytes",
    ],
    [
      "a GET outside any session",
      "GET",
      () => ({ accept: "text/event-stream", authorization: `Bearer ${token}` }),
      undefined,
      400,
      -32000,
      "Bad Request",
    ],
  ] as const)("%s", async (_name, method, headers, body, status, code, message) => {
    const answer = await raw(server.url, method, headers(), body);
    expect(answer.status).toBe(status);
    const { error, id } = JSON.parse(answer.body) as { error: { code: number; message: string }; id: unknown };
    expect([error.code, id]).toEqual([code, null]);
    expect(error.message).toContain(message);
    const client = await connect(server.url, "legacy", token);
    await client.ping();
    await client.close();
  });

  it("lets a page served from localhost in", async () => {
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "0" } },
    });
    const allowed = await raw(
      server.url,
      "POST",
      { ...json, origin: "http://localhost:5173", authorization: `Bearer ${token}` },
      initialize,
    );
    expect(allowed.status).toBe(200);
  });
});

describe("starting and stopping", () => {
  it("refuses bad arguments with its usage and exit 64, and an issuer it cannot reach with exit 1", async () => {
    const closed = createServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve)); // a port where nothing listens any more
    const runs = [
      ["--port", "http", "--issuer", issuer.url],
      ["--port", "0"],
      ["--workers", "1", "--issuer", nobody],
    ].map(async (args) => {
      const run = await startServer(args);
      return [(await run.exited)[0], run.stderr];
    });
    const usage = "usage: server.ts [--port N] [--workers N (1 to 16)] --issuer URL";
    expect(await Promise.all(runs)).toEqual([
      [64, [usage]],
      [64, [usage]],
      [
        1,
        expect.arrayContaining([
          `[worker 1] cannot reach ${nobody}: ECONNREFUSED`,
          "[primary] worker 1 exited unasked (1): stopping 0 worker(s)",
        ]),
      ],
    ]);
  });
});
