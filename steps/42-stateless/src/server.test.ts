// server.ts as clients of both eras meet it: 2026-07-28 requests with no session, 2025-era sessions, a question for the
// user asked both ways, the refusals of each path, and a stop with sessions open.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer as createHttpServer, request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { testHostileRequests } from "./test/hostile-requests.ts";

const program = fileURLToPath(new URL("./server.ts", import.meta.url));
type Mode = NonNullable<ClientOptions["versionNegotiation"]>["mode"];

async function startServer(args = ["--port", "0"]) {
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  // "close", not "exit": it comes once stderr has ended, so every line the server wrote is in `stderr` by then.
  const exited = once(child, "close") as Promise<[number | null]>;
  const url = await new Promise<string | null>((resolve) => {
    createInterface({ input: child.stderr }).on("line", (line) => {
      stderr.push(line);
      if (line.startsWith("listening on ")) resolve(line.slice("listening on ".length));
    });
    void exited.then(() => resolve(null));
  });
  return { url: url!, child, stderr, exited };
}

async function connect(url: string, mode: Mode): Promise<Client> {
  const client = new Client({ name: "test", version: "0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** node's http module sends Host, Origin and Content-Length exactly as given, which fetch will not. */
function raw(
  url: string,
  method: string,
  headers: OutgoingHttpHeaders,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const CAN_ASK = { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } };
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

interface JsonRpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** One 2026-07-28 request with fetch: the headers the revision asks for, and the parsed JSON answer. */
async function modern(method: string, params: Record<string, unknown>, version = "2026-07-28") {
  const headers = {
    ...JSON_HEADERS,
    "mcp-protocol-version": version,
    "mcp-method": method,
    ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
  };
  const response = await fetch(server.url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return {
    status: response.status,
    session: response.headers.get("mcp-session-id"),
    body: (await response.json()) as JsonRpcAnswer,
  };
}

/** A 2025-era POST, optionally in a session; an initialize opens one. */
const legacyPost = (message: object, session?: string) =>
  fetch(server.url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...(session ? { "mcp-session-id": session } : {}) },
    body: JSON.stringify(message),
  });
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } },
};
const PING = { jsonrpc: "2.0", id: 1, method: "ping" };

async function openSession(): Promise<string> {
  const response = await legacyPost(INITIALIZE);
  await response.text();
  expect(response.status).toBe(200);
  return response.headers.get("mcp-session-id")!;
}

function askingClient(mode: Mode, answer: { action: "accept" | "decline"; content?: Record<string, string> }) {
  const client = new Client(
    { name: "test", version: "0" },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
  );
  const asked: string[] = [];
  client.setRequestHandler("elicitation/create", async ({ params }) => {
    asked.push(params.message);
    return answer;
  });
  return { client, asked };
}

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => void server.child.kill("SIGKILL"));

describe("2026-07-28: every request stands alone", () => {
  it("answers the same request twice with no session, and names itself in each result", async () => {
    const params = { name: "add", arguments: { a: 2, b: 40 }, _meta: ENVELOPE };
    for (const _ of [1, 2]) {
      const { status, session, body } = await modern("tools/call", params);
      expect([status, session]).toEqual([200, null]);
      expect(body.result).toEqual({
        content: [{ type: "text", text: "42" }],
        resultType: "complete",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "learn-mcp-http", version: "0.1.0" } },
      });
    }
  });

  it("describes itself through server/discover", async () => {
    const { status, body } = await modern("server/discover", { _meta: ENVELOPE });
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      resultType: "complete",
    });
  });

  it.each([
    [
      "initialize",
      { protocolVersion: "2026-07-28", capabilities: {}, clientInfo: { name: "t", version: "0" }, _meta: ENVELOPE },
      "2026-07-28",
      404,
      -32601,
    ],
    ["ping", { _meta: ENVELOPE }, "2026-07-28", 404, -32601],
    ["logging/setLevel", { level: "debug", _meta: ENVELOPE }, "2026-07-28", 404, -32601],
    [
      "tools/list",
      { _meta: { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      "2099-01-01",
      400,
      -32022,
    ],
  ] as const)("refuses %s as the revision says", async (method, params, version, status, code) => {
    const answer = await modern(method, params, version);
    expect([answer.status, answer.body.error?.code]).toEqual([status, code]);
    if (code === -32022)
      expect(answer.body.error?.data).toMatchObject({ supported: ["2026-07-28"], requested: "2099-01-01" });
  });

  it("asks with an input_required result, and completes when the call comes back answered", async () => {
    const first = await modern("tools/call", { name: "greet", arguments: {}, _meta: CAN_ASK });
    expect(first.body.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { name: { method: "elicitation/create", params: { message: "What is your name?" } } },
    });
    const retry = (response: unknown) =>
      modern("tools/call", { name: "greet", arguments: {}, inputResponses: { name: response }, _meta: CAN_ASK });
    expect((await retry({ action: "accept", content: { name: "Ada" } })).body.result).toMatchObject({
      resultType: "complete",
      content: [{ text: "Hello, Ada!" }],
    });
    expect((await retry({ action: "decline" })).body.result).toMatchObject({
      content: [{ text: "No name, no greeting." }],
    });
    expect((await retry({ action: "accept", content: { name: "" } })).body.result).toMatchObject({
      isError: true,
      content: [{ text: "That is not a name I can use." }],
    });
  });

  it("refuses to ask a client whose capabilities say it cannot answer", async () => {
    const { status, body } = await modern("tools/call", { name: "greet", arguments: {}, _meta: ENVELOPE });
    expect([status, body.error?.code, body.error?.data]).toEqual([
      400,
      -32021,
      { requiredCapabilities: { elicitation: { form: {} } } },
    ]);
  });
});

describe("2025-era clients get sessions", () => {
  it("requires the session from initialize on, forgets it after DELETE, and tells the two apart", async () => {
    const session = await openSession();
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await legacyPost(PING, session)).status).toBe(200);
    expect((await legacyPost(PING)).status).toBe(400);
    expect((await legacyPost(PING, "no-such-session")).status).toBe(404);
    const ended = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": session } });
    expect(ended.status).toBe(200);
    expect((await legacyPost(PING, session)).status).toBe(404);
  });

  it.each([
    ["accepts", { action: "accept", content: { name: "Ada" } }, "Hello, Ada!"],
    ["declines", { action: "decline" }, "No name, no greeting."],
  ] as const)("greet sends elicitation/create in the session, and the user %s", async (_name, answer, text) => {
    const { client, asked } = askingClient("legacy", answer);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(await client.callTool({ name: "greet", arguments: {} })).toMatchObject({ content: [{ text }] });
    expect(asked).toEqual(["What is your name?"]);
    await client.close();
  });

  it("a 2026-07-28 client gets the same question, through input_required", async () => {
    const { client, asked } = askingClient({ pin: "2026-07-28" }, { action: "accept", content: { name: "Ada" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect(await client.callTool({ name: "greet", arguments: {} })).toMatchObject({
      content: [{ text: "Hello, Ada!" }],
    });
    expect(asked).toEqual(["What is your name?"]);
    await client.close();
  });

  it("keeps at most 32 sessions: a 33rd ends the one used least recently, whose client then gets 404", async () => {
    const own = await startServer();
    const post = async (message: object, session?: string) => {
      const response = await fetch(own.url, {
        method: "POST",
        headers: { ...JSON_HEADERS, ...(session ? { "mcp-session-id": session } : {}) },
        body: JSON.stringify(message),
      });
      await response.text();
      return response;
    };
    const open = async () => (await post(INITIALIZE)).headers.get("mcp-session-id")!;
    const opened = await Promise.all(Array.from({ length: 32 }, open));
    expect(new Set(opened).size).toBe(32);
    // Every session is used again but one, which is then the one used least recently.
    for (const session of opened.filter((_, index) => index !== 5))
      expect((await post(PING, session)).status).toBe(200);
    expect(await open()).toEqual(expect.any(String));
    expect((await post(PING, opened[5])).status).toBe(404);
    expect(own.stderr).toContain(`[server] session ${opened[5]} ended to make room: it was used least recently of 33`);
    expect((await post(PING, opened[0])).status).toBe(200);
    own.child.kill("SIGTERM");
    expect((await own.exited)[0]).toBe(0);
    expect(own.stderr).toContain("[server] SIGTERM: closing 32 session(s)");
  });
});

testHostileRequests(() => server.url);

describe("the HTTP layer", () => {
  const ping = JSON.stringify(PING);
  it.each([
    ["a foreign Host", { ...JSON_HEADERS, host: "evil.example" }, 403],
    ["a foreign Origin", { ...JSON_HEADERS, origin: "https://evil.example" }, 403],
    ["text/plain", { ...JSON_HEADERS, "content-type": "text/plain" }, 415],
    ["an Accept without text/event-stream", { ...JSON_HEADERS, accept: "application/json" }, 406],
  ] as const)("refuses %s before either era's code runs", async (_name, headers, status) => {
    expect((await raw(server.url, "POST", headers, ping)).status).toBe(status);
  });

  it("refuses a body over 4 MiB, announced, with 413", async () => {
    expect((await raw(server.url, "POST", { ...JSON_HEADERS, "content-length": String(5 * 1024 * 1024) })).status).toBe(
      413,
    );
  });

  it("the SDK client in auto mode falls back to initialize with a server that only speaks 2025", async () => {
    // The previous SDK (1.x) serves the legacy era only: server/discover is an unknown method to it. Statelessly, as
    // its own examples do: a new server and transport for every request.
    const http = createHttpServer(async (request, response) => {
      const old = new LegacyMcpServer({ name: "legacy-only", version: "1.0.0" });
      old.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
        content: [{ type: "text", text: String(a + b) }],
      }));
      const transport = new LegacyHttpTransport({ sessionIdGenerator: undefined });
      response.on("close", () => void old.close());
      await old.connect(transport);
      await transport.handleRequest(request, response);
    }).listen(0, "127.0.0.1");
    await once(http, "listening");
    try {
      const client = await connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, "auto");
      expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(["legacy", "2025-11-25"]);
      expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toMatchObject({
        content: [{ text: "42" }],
      });
      await client.close();
    } finally {
      http.closeAllConnections();
      http.close();
    }
  });

  it.each([["legacy"], ["auto"]] as const)("the SDK client in %s mode adds 2 + 40", async (mode) => {
    const client = await connect(server.url, mode);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ text: "42" }],
    });
    await client.close();
  });

  it.each([[["--port", "http"]], [["--port", "0x10"]], [["--port"]], [["--ports", "1"]]])(
    "refuses %j with its usage and exit 64",
    async (args) => {
      const bad = await startServer(args);
      expect([(await bad.exited)[0], bad.stderr]).toEqual([64, ["usage: server.ts [--port N]"]]);
    },
  );

  it("says so and exits 1 when its port is taken", async () => {
    const busy = await startServer(["--port", new URL(server.url).port]);
    expect([(await busy.exited)[0], busy.stderr]).toEqual([
      1,
      [expect.stringMatching(/^cannot listen: listen EADDRINUSE/)],
    ]);
  });
});
