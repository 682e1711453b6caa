// Remote entries in the manager, against real HTTP servers on 127.0.0.1: the SDK's server behind a bearer token, and
// servers that refuse, hang or go away. Each failure is one sentence; the others keep working; nothing stays open.
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "./config.ts";
import { McpManager } from "./manager.ts";
import { MAX_MESSAGE_BYTES } from "./remote.ts";
import { startRemote } from "./test/remote.ts";
import { text } from "./test/servers.ts";

const TOKEN = "t0k3n-for-tests";
const project = mkdtempSync(path.join(tmpdir(), "learn-mcp-remote-test-"));
let remote: Awaited<ReturnType<typeof startRemote>>;

// A server that takes every connection and answers nothing, and remembers what it was sent; on /huge it answers
// with a body just over the bound, on /endless with an event stream whose first event never ends, and on /echo it
// refuses the request by quoting the token it was sent.
const heard: IncomingHttpHeaders[] = [];
const OVER = "x".repeat(MAX_MESSAGE_BYTES);
const silent = createServer((request, response) => {
  heard.push(request.headers);
  if (request.url === "/huge") response.writeHead(200, { "content-type": "application/json" }).end(`"${OVER}"`);
  if (request.url === "/endless")
    response.writeHead(200, { "content-type": "text/event-stream" }).write(`data: ${OVER}`);
  if (request.url === "/echo") response.writeHead(401).end(`no such token: ${request.headers.authorization}`);
  if (request.url === "/echo-all")
    response
      .writeHead(401)
      .end(`${"x".repeat(170)} ${ECHOED.map((name) => `${name}: ${request.headers[name]}`).join(" ")}`);
});
const ECHOED = ["authorization", "x-team", "cookie", "x-api-key", "x-session-token"];
let silentUrl = "";

beforeAll(async () => {
  remote = await startRemote(TOKEN);
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
});
afterAll(async () => {
  await remote.stop();
  silent.closeAllConnections();
  silent.close();
  rmSync(project, { recursive: true, force: true });
});

/** The project's .mcp.json holds `servers`; ${REMOTE_TOKEN} is expanded from `env`, as a host would from its own. */
function managerFor(servers: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, timeoutMs = 2000) {
  writeFileSync(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  const { servers: configs, problems } = loadConfig({ project }, env);
  expect(problems).toEqual([]);
  return new McpManager(configs, { timeoutMs, log: () => {} });
}

describe("a remote server behind a bearer token", () => {
  test("the token comes from the environment through ${VAR}, the tools are offered, and add answers 42", async () => {
    const manager = managerFor(
      { remote: { type: "http", url: remote.url, headers: { Authorization: "Bearer ${REMOTE_TOKEN}" } } },
      { REMOTE_TOKEN: TOKEN },
    );
    await manager.connectAll();
    expect(manager.status()).toEqual([{ name: "remote", state: "ready", tools: 1 }]);
    expect(manager.tools().map((tool) => tool.name)).toEqual(["mcp__remote__add"]);
    expect(text(await manager.callTool("mcp__remote__add", { a: 2, b: 40 }))).toBe("42");
    expect(manager.processGroups()).toEqual([]); // no process of ours
    await manager.closeAll();
    // closed, not a death with a reason
    expect(manager.status()).toEqual([{ name: "remote", state: "closed", tools: 1 }]);
  });

  test("a wrong token fails that server with its status and what it said; the others still work", async () => {
    const manager = managerFor({
      good: { type: "http", url: remote.url, headers: { Authorization: `Bearer ${TOKEN}` } },
      "wrong-token": { type: "http", url: remote.url, headers: { Authorization: "Bearer nope" } },
      "no-token": { type: "http", url: remote.url },
    });
    await manager.connectAll();
    const refused = `the handshake failed: HTTP 401 from ${remote.url}: {"error":"invalid_token","error_description":"send Authorization: Bearer <token>"}`;
    expect(manager.status()).toEqual([
      { name: "good", state: "ready", tools: 1 },
      { name: "wrong-token", state: "failed", tools: 0, lastError: refused },
      { name: "no-token", state: "failed", tools: 0, lastError: refused },
    ]);
    expect(text(await manager.callTool("mcp__good__add", { a: 1, b: 1 }))).toBe("2");
    await manager.closeAll();
  });

  test("a server that quotes the token back in its refusal does not get it printed", async () => {
    const manager = managerFor({
      echo: { type: "http", url: silentUrl.replace("/mcp", "/echo"), headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    await manager.connectAll();
    expect(manager.status()[0]!.lastError).toBe(
      `the handshake failed: HTTP 401 from ${silentUrl.replace("/mcp", "/echo")}: no such token: Bearer ***`,
    );
    await manager.closeAll();
  });

  test("a server's quoted text is masked before it is cut, in lastError and the log; URLs keep ${VAR}", async () => {
    const secrets = { GH_TOKEN: "ghp_0123456789abcdef", TEAM: "blue-team-7", PORT: new URL(silentUrl).port };
    const url = "http://127.0.0.1:${PORT}/echo-all";
    const headers = {
      Authorization: "token ${GH_TOKEN}",
      "X-Team": "${TEAM}",
      Cookie: "theme=dark; sid=c00kie-value",
      "X-Api-Key": "k3y-literal",
      "X-Session-Token": "s3ss10n-t0k extra",
    };
    writeFileSync(
      path.join(project, ".mcp.json"),
      JSON.stringify({ mcpServers: { echo: { type: "http", url, headers } } }),
    );
    const logged: string[] = [];
    const manager = new McpManager(loadConfig({ project }, secrets).servers, {
      timeoutMs: 2000,
      log: (line) => logged.push(line),
    });
    await manager.connectAll();
    const said =
      `${"x".repeat(170)} authorization: token *** x-team: *** cookie: *** x-api-key: *** x-session-token: ***`.slice(
        0,
        200,
      );
    expect(manager.status()[0]!.lastError).toBe(
      `the handshake failed: HTTP 401 from http://127.0.0.1:\${PORT}/echo-all: ${said}`,
    );
    expect(logged.length).toBeGreaterThan(0); // the SDK's own report of the refusal, with the whole body
    for (const text of [...logged, manager.status()[0]!.lastError!]) {
      for (const secret of ["ghp_0123", "blue-team", "dark", "c00kie", "k3y-lit", "s3ss10n"])
        expect(text).not.toContain(secret);
    }
    await manager.closeAll();
  });
});

describe("servers that fail", () => {
  test("one that never answers times out after the headers, and its request is cut off", async () => {
    // Every fetch's signal, to see that the request the server never answered is aborted when the transport closes.
    const signals: AbortSignal[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => (init?.signal && signals.push(init.signal), realFetch(input, init));
    try {
      const manager = managerFor({ silent: { type: "http", url: silentUrl, headers: { "X-Team": "blue" } } });
      await manager.connectAll();
      expect(manager.status()).toEqual([
        { name: "silent", state: "failed", tools: 0, lastError: "the handshake failed: no answer within 2000 ms" },
      ]);
      expect(heard.at(-1)).toMatchObject({ "x-team": "blue", "content-type": "application/json" });
      await manager.closeAll();
      expect(signals.length).toBeGreaterThan(0);
      expect(signals.every((signal) => signal.aborted)).toBe(true);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  test("one that sends more than 16 MiB in one body or one event is cut off with that reason", async () => {
    const base = silentUrl.replace("/mcp", "");
    // 16 MiB takes a while to arrive on a loaded machine: the bound must be what stops it, not the 2 s timeout.
    const manager = managerFor(
      { huge: { type: "http", url: `${base}/huge` }, endless: { type: "http", url: `${base}/endless` } },
      {},
      30_000,
    );
    await manager.connectAll();
    expect(manager.status()).toEqual([
      {
        name: "huge",
        state: "failed",
        tools: 0,
        lastError: `the handshake failed: the server sent a body of more than ${MAX_MESSAGE_BYTES} bytes`,
      },
      {
        name: "endless",
        state: "failed",
        tools: 0,
        lastError: `the handshake failed: the server sent an event of more than ${MAX_MESSAGE_BYTES} bytes`,
      },
    ]);
    await manager.closeAll();
  });

  test("one that goes away after connecting: each call fails with why; the server stays ready", async () => {
    const flaky = await startRemote(TOKEN);
    const manager = managerFor({
      flaky: { type: "http", url: flaky.url, headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    await manager.connectAll();
    await flaky.stop();
    await expect(manager.callTool("mcp__flaky__add", { a: 1, b: 2 })).rejects.toThrow(
      `tools/call "add" on server "flaky" failed: could not reach ${flaky.url}: ECONNREFUSED`,
    );
    // Stateless HTTP holds no session: the same URL served again is the same server to the client.
    const port = new URL(flaky.url).port;
    const back = createServer((request, response) => void response.writeHead(503).end("maintenance"));
    back.listen(Number(port), "127.0.0.1");
    await once(back, "listening");
    await expect(manager.callTool("mcp__flaky__add", { a: 1, b: 2 })).rejects.toThrow(
      `failed: HTTP 503 from ${flaky.url}: maintenance`,
    );
    expect(manager.status()[0]!.state).toBe("ready"); // a failed request is not a dead server: nothing to restart
    back.close();
    await manager.closeAll();
  });
});

describe("the fixture server keeps serving, whatever a client sends", () => {
  // Written byte by byte on a socket: fetch and node's http client would not send a forged Host or a broken target.
  // Done when the answer is complete, by its length or its last chunk: the SDK keeps an SSE answer's connection alive.
  const rawRequest = (head: string, body = "") =>
    new Promise<{ status: number; body: string }>((resolve) => {
      const socket = connect(Number(new URL(remote.url).port), "127.0.0.1", () =>
        socket.write(`${head}\r\nconnection: close\r\n\r\n${body}`),
      );
      let answer = "";
      const done = () =>
        resolve({ status: Number(answer.slice(9, 12)), body: answer.slice(answer.indexOf("\r\n\r\n") + 4) });
      const complete = () => {
        const end = answer.indexOf("\r\n\r\n");
        const length = /\r\ncontent-length: (\d+)/i.exec(answer.slice(0, end))?.[1];
        return (
          end !== -1 &&
          (length !== undefined
            ? Buffer.byteLength(answer.slice(end + 4)) >= Number(length)
            : answer.endsWith("\r\n0\r\n\r\n"))
        );
      };
      socket
        .setEncoding("utf8")
        .on("data", (chunk: string) => ((answer += chunk), complete() && (done(), socket.destroy())));
      socket.on("error", () => {}).on("close", done);
    });
  const ping = (...headers: string[]) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const head = [
      "POST /mcp HTTP/1.1",
      "content-type: application/json",
      "accept: application/json, text/event-stream",
      `authorization: Bearer ${TOKEN}`,
      `content-length: ${body.length}`,
    ];
    return rawRequest([...head, ...headers].join("\r\n"), body);
  };
  const message = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message;

  test.each([
    ["localhost", 200, ""],
    ["LOCALHOST:3000", 200, ""],
    ["[::1]:8080", 200, ""],
    ["127.0.0.1", 200, ""],
    ["evil.com@localhost", 403, "Invalid Host: evil.com@localhost"],
    ["localhost.", 403, "Invalid Host: localhost."],
    ["localhost.evil.com", 403, "Invalid Host: localhost.evil.com"],
    ["127.0.0.2", 403, "Invalid Host: 127.0.0.2"],
    ["[0:0:0:0:0:0:0:1]", 403, "Invalid Host: [0:0:0:0:0:0:0:1]"],
    ["localhost:99999", 403, "Invalid Host: localhost:99999"],
    ["", 403, "Invalid Host: "],
  ])("Host %j: %d", async (host, status, refusal) => {
    const answer = await ping(`host: ${host}`);
    expect([answer.status, status === 200 ? "" : message(answer.body)]).toEqual([status, refusal]);
    expect((await ping("host: 127.0.0.1")).status).toBe(200);
  });

  test.each([
    ["Origin: null", 403, "Invalid Origin: null", ["host: localhost", "origin: null"]],
    [
      "Origin: http://evil.com@localhost",
      403,
      "Invalid Origin: http://evil.com@localhost",
      ["host: localhost", "origin: http://evil.com@localhost"],
    ],
    [
      "two Host headers",
      400,
      "Bad Request: a request needs exactly one Host header",
      ["host: localhost", "host: evil.example"],
    ],
  ])("%s: %d", async (_name, status, refusal, headers) => {
    const answer = await ping(...headers);
    expect([answer.status, message(answer.body)]).toEqual([status, refusal]);
    expect((await ping("host: 127.0.0.1", "origin: http://localhost:5173")).status).toBe(200);
  });

  test.each(["//%", "//[", "//:99999", "http://[", "//evil/mcp"])("GET %s: 400, not a crash", async (target) => {
    const answer = await rawRequest(`GET ${target} HTTP/1.1\r\nhost: localhost`);
    expect([answer.status, message(answer.body)]).toEqual([400, "Bad Request: the request-target is not a path"]);
    expect((await ping("host: 127.0.0.1")).status).toBe(200);
  });
});
