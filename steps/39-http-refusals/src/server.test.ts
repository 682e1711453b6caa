// The bridge over real sockets on 127.0.0.1, in front of real processes: mostly the plain-Node fixture server, which
// starts fast, and the SDK server with every stdio feature once, where the lesson needs it.
import { request as httpRequest } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { leftInGroups } from "./groups.ts";
import { call, JSON_HEADERS, rawHttp, rawRequest, startBridge, stopAll, type Bridge } from "./test/bridge.ts";

afterAll(stopAll); // a bridge whose test timed out before its own stop

const ping = (id: number | string = 1) => ({ jsonrpc: "2.0", id, method: "ping" });
const errorOf = async (response: Response) =>
  (await response.json()) as { id: unknown; error: { code: number; message: string } };

describe("in front of the fixture server", () => {
  let bridge: Bridge;
  beforeAll(async () => (bridge = await startBridge()));
  afterAll(async () => expect(await bridge.stop()).toBe(143));

  test("refuses each kind of bad request with its status and a JSON-RPC error, and keeps serving", async () => {
    const session = await bridge.open();
    const post = (headers: Record<string, string>, body = JSON.stringify(ping())) =>
      rawRequest(bridge.url, "POST", { ...JSON_HEADERS, "mcp-session-id": session, ...headers }, body);
    const cases: [string, Promise<{ status: number; body: string }>, number, number][] = [
      ["foreign Host", post({ host: "evil.example:80" }), 403, -32000],
      ["foreign Origin", post({ origin: "http://evil.example" }), 403, -32000],
      ["Content-Type", post({ "content-type": "text/plain" }), 415, -32000],
      ["Accept without text/event-stream", post({ accept: "application/json" }), 406, -32000],
      ["unsupported MCP-Protocol-Version", post({ "mcp-protocol-version": "2024-11-05" }), 400, -32000],
      [
        "unsupported MCP-Protocol-Version on DELETE",
        rawRequest(bridge.url, "DELETE", { "mcp-session-id": session, "mcp-protocol-version": "2024-11-05" }),
        400,
        -32000,
      ],
      ["malformed JSON", post({}, '{"jsonrpc":'), 400, -32700],
      ["a batch", post({}, `[${JSON.stringify(ping())}]`), 400, -32600],
      ["not JSON-RPC", post({}, '{"id":1}'), 400, -32600],
      ["no session", rawRequest(bridge.url, "POST", JSON_HEADERS, JSON.stringify(ping())), 400, -32000],
      ["unknown session", post({ "mcp-session-id": "no-such-session" }), 404, -32000],
      ["GET", rawRequest(bridge.url, "GET", { accept: "text/event-stream" }), 405, -32000],
    ];
    for (const [what, answer, status, code] of cases) {
      const { status: got, body } = await answer;
      expect({ what, status: got, error: JSON.parse(body) }).toMatchObject({
        what,
        status,
        error: { jsonrpc: "2.0", id: null, error: { code } },
      });
    }
    expect((await rawRequest(bridge.url, "GET", {})).headers.allow).toBe("POST, DELETE");
    expect((await rawRequest(bridge.url.replace("/mcp", "/other"), "POST", JSON_HEADERS, "{}")).status).toBe(404);
    // Local names pass with any port, and a version this bridge supports passes.
    for (const headers of [
      { host: "localhost:1" },
      { host: "127.0.0.1" },
      { host: "[::1]:8080", origin: "http://127.0.0.1:3000" },
      { "mcp-protocol-version": "2025-06-18" },
    ] as Record<string, string>[]) {
      expect(await post(headers)).toMatchObject({
        status: 200,
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }),
      });
    }
    // JSON spread over lines is valid JSON; the server, which reads lines, still gets it on one.
    expect(await post({}, JSON.stringify(ping(7), null, 2))).toMatchObject({
      status: 200,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, result: {} }),
    });
  });

  test("Host is localhost, 127.0.0.1 or [::1], optional port 1-65535, read by hand; Origin likewise", async () => {
    const session = await bridge.open();
    const body = JSON.stringify(ping());
    const postWith = (headers: string[]) =>
      rawHttp(
        bridge.url,
        [
          "POST /mcp HTTP/1.1",
          `Content-Type: ${JSON_HEADERS["content-type"]}`,
          `Accept: ${JSON_HEADERS.accept}`,
          `Mcp-Session-Id: ${session}`,
          ...headers,
        ],
        body,
      );
    const hosts: [string[], number][] = [
      ...["localhost", "LOCALHOST:3000", "LocalHost:1", "127.0.0.1", "127.0.0.1:65535", "[::1]", "[::1]:8080"].map(
        (host): [string[], number] => [[`Host: ${host}`], 200],
      ),
      ...[
        "evil.com@localhost",
        "localhost@evil.com",
        "localhost.",
        "localhost.evil.com",
        "",
        "127.0.0.2",
        "[::1",
        "[0:0:0:0:0:0:0:1]",
        "::1",
        "localhost:0",
        "localhost:99999",
        "localhost:123456",
        "localhost:",
        "local host",
        "localhost:80 80",
        "evil.example:80",
      ].map((host): [string[], number] => [[`Host: ${host}`], 403]),
      [[], 400],
      [["Host: localhost", "Host: evil.example"], 400],
      [["Host: evil.example", "Host: localhost"], 400],
      ...["http://localhost:3000", "https://127.0.0.1", "HTTP://[::1]:8080"].map((origin): [string[], number] => [
        ["Host: localhost", `Origin: ${origin}`],
        200,
      ]),
      ...[
        "null",
        "localhost",
        "ftp://localhost",
        "http://evil.com@localhost",
        "http://localhost.evil.com",
        "http://localhost/",
        "http://localhost:99999",
        "http://[::1",
      ].map((origin): [string[], number] => [["Host: localhost", `Origin: ${origin}`], 403]),
      // node joins the two with ", "
      [["Host: localhost", "Origin: http://localhost", "Origin: http://evil.example"], 403],
    ];
    for (const [headers, status] of hosts) {
      const answer = await postWith(headers);
      const expected =
        status === 200 ? { jsonrpc: "2.0", id: 1, result: {} } : { jsonrpc: "2.0", id: null, error: { code: -32000 } };
      expect({ headers, status: answer.status, body: JSON.parse(answer.body) }).toMatchObject({
        headers,
        status,
        body: expected,
      });
    }
    expect((await bridge.post(ping(), session)).status).toBe(200);
  });

  test("a request-target URL cannot read gets 400, and no stack; the bridge keeps serving", async () => {
    const session = await bridge.open();
    for (const [target, status] of [
      ["//%", 400],
      ["//[", 400],
      ["http://[", 400],
      ["/mcp%zz", 400],
      ["*", 400],
      ["//:99999", 404],
      ["//evil.example/mcp", 404],
    ] as const) {
      const answer = await rawHttp(
        bridge.url,
        [`POST ${target} HTTP/1.1`, "Host: localhost", "Content-Type: application/json"],
        JSON.stringify(ping()),
      );
      const message =
        status === 400 ? `the request-target ${JSON.stringify(target)} is not a path` : "the endpoint is /mcp";
      expect({ target, status: answer.status, body: JSON.parse(answer.body) }).toMatchObject({
        target,
        status,
        body: { id: null, error: { code: -32000, message } },
      });
      expect((await bridge.post(ping(), session)).status).toBe(200);
    }
    // A path with a query is read as the path: the request gets as far as the session check.
    const query = await rawHttp(
      bridge.url,
      [
        "POST /mcp?x=%20&y=1 HTTP/1.1",
        "Host: localhost",
        "Content-Type: application/json",
        `Accept: ${JSON_HEADERS.accept}`,
      ],
      JSON.stringify(ping()),
    );
    expect([query.status, JSON.parse(query.body).error.message]).toEqual([400, "Mcp-Session-Id header is required"]);
    expect(bridge.stderr.join("\n")).not.toMatch(/internal error/);
  });

  test("initialize starts a session and its server; DELETE ends both, and the session is then unknown", async () => {
    const initialize = await bridge.post({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18" },
    });
    const session = initialize.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(initialize.headers.get("content-type")).toBe("application/json");
    expect(await initialize.json()).toMatchObject({ id: "init", result: { protocolVersion: "2025-06-18" } });
    const pid = bridge.serverPids().at(-1)!;
    expect(await leftInGroups([pid], 0)).toEqual([pid]);
    const notification = await bridge.post({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
    expect([notification.status, await notification.text()]).toEqual([202, ""]);
    // an answer to no request is forwarded too
    const response = await bridge.post({ jsonrpc: "2.0", id: 5, result: {} }, session);
    expect([response.status, await response.text()]).toEqual([202, ""]);

    expect((await rawRequest(bridge.url, "DELETE", {})).status).toBe(400);
    expect((await rawRequest(bridge.url, "DELETE", { "mcp-session-id": "no-such-session" })).status).toBe(404);
    expect((await rawRequest(bridge.url, "DELETE", { "mcp-session-id": session })).status).toBe(204);
    expect(await leftInGroups([pid])).toEqual([]);
    const after = await bridge.post(ping(), session);
    expect([after.status, (await errorOf(after)).error.code]).toEqual([404, -32000]);
    expect((await rawRequest(bridge.url, "DELETE", { "mcp-session-id": session })).status).toBe(404);
  });

  test("a result alone is JSON; notifications that belong to the request turn the answer into a stream", async () => {
    const session = await bridge.open();
    const plain = await bridge.post(call(1, "count", { to: 2 }), session); // no progressToken: no progress sent
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect(await plain.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "counted to 2" }] },
    });

    const streamed = await bridge.post(call(2, "count", { to: 2 }, { progressToken: "p" }), session);
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const progress = (n: number) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "p", progress: n, total: 2 },
    });
    const result = { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "counted to 2" }] } };
    expect(await streamed.text()).toBe(
      [progress(1), progress(2), result].map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(""),
    );

    const logged = await bridge.post(call(3, "log"), session); // the only request in flight: the log line is its own
    expect(logged.headers.get("content-type")).toBe("text/event-stream");
    expect(await logged.text()).toContain(
      'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a log line"}}\n\n',
    );

    const announced = await bridge.post(call(4, "announce"), session);
    expect(announced.headers.get("content-type")).toBe("application/json");
    await announced.text();
    expect(bridge.stderr.join("\n")).toMatch(
      /dropped notifications\/tools\/list_changed, which belongs to no request in flight/,
    );
  });

  test("two requests at once: each answer, and each request's progress, goes to the POST that sent it", async () => {
    const session = await bridge.open();
    const slow = bridge.post(call("slow", "wait", { ms: 400 }), session);
    const fast = bridge.post(call("fast", "wait", { ms: 10 }), session);
    const order: string[] = [];
    const [slowBody, fastBody] = await Promise.all(
      [slow, fast].map(async (answer) => {
        const body = (await (await answer).json()) as { id: string; result: unknown };
        order.push(body.id);
        return body;
      }),
    );
    expect(order).toEqual(["fast", "slow"]);
    expect([slowBody!.result, fastBody!.result]).toEqual([
      { content: [{ type: "text", text: "waited 400 ms" }] },
      { content: [{ type: "text", text: "waited 10 ms" }] },
    ]);

    const [a, b] = await Promise.all(
      ["a", "b"].map(async (token, i) =>
        (await bridge.post(call(i, "count", { to: 3 }, { progressToken: token }), session)).text(),
      ),
    );
    expect([
      a!.match(/"progressToken":"a"/g)?.length,
      a!.includes('"progressToken":"b"'),
      b!.match(/"progressToken":"b"/g)?.length,
      b!.includes('"progressToken":"a"'),
    ]).toEqual([3, false, 3, false]);
  });

  test("a server request travels on the one request's stream in flight, and the answer reaches it", async () => {
    const session = await bridge.open();
    const answer = await bridge.post(call(1, "ask"), session);
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
    let stream = "";
    while (!stream.includes("\n\n")) stream += (await reader.read()).value;
    expect(JSON.parse(/^data: (.*)$/m.exec(stream)![1]!)).toEqual({
      jsonrpc: "2.0",
      id: "from-server",
      method: "roots/list",
    });
    const reply = await bridge.post({ jsonrpc: "2.0", id: "from-server", result: { roots: [] } }, session);
    expect(reply.status).toBe(202);
    for (let part = await reader.read(); !part.done; part = await reader.read()) stream += part.value;
    expect(stream).toContain('"text":"the client answered roots/list: {\\"roots\\":[]}"');
  });

  test("a server request while two are in flight is refused at once: it could belong to either", async () => {
    const session = await bridge.open();
    const slow = bridge.post(call(1, "wait", { ms: 400 }), session);
    await sleep(100);
    const asked = await (await bridge.post(call(2, "ask"), session)).json();
    expect(asked).toMatchObject({ id: 2, result: { content: [{ text: expect.stringContaining('"code":-32601') }] } });
    expect(bridge.stderr.join("\n")).toMatch(/refused the server's request roots\/list/);
    await (await slow).text();
  });

  test("a server that exits mid-request fails the POST with -32603 and ends its session", async () => {
    const session = await bridge.open();
    const answer = await bridge.post(call(7, "crash"), session);
    expect(await answer.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: "the server exited with code 3 before it answered" },
    });
    expect((await bridge.post(ping(), session)).status).toBe(404);
  });

  test("a body over 4 MiB gets 413 without being read to its end: by Content-Length, or while it streams", async () => {
    const session = await bridge.open();
    const announced = await rawRequest(bridge.url, "POST", {
      ...JSON_HEADERS,
      "mcp-session-id": session,
      "content-length": 5 * 1024 * 1024,
    });
    expect([announced.status, announced.headers.connection]).toEqual([413, "close"]);
    // A chunked body that never ends: the answer comes while it is still being sent.
    const started = Date.now();
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        bridge.url,
        { method: "POST", headers: { ...JSON_HEADERS, "mcp-session-id": session } },
        (response) => {
          resolve(response.statusCode!);
          request.destroy();
        },
      );
      request.on("error", (error) => (request.destroyed ? undefined : reject(error)));
      const chunk = Buffer.alloc(256 * 1024, " ");
      const pump = () => {
        while (!request.destroyed && request.write(chunk));
        if (!request.destroyed) request.once("drain", pump);
      };
      pump();
    });
    expect(status).toBe(413);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await (await bridge.post(ping(2), session)).json()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  test("the SDK's Streamable HTTP client works through the bridge, in legacy mode", async () => {
    const client = new Client({ name: "bridge-test", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
    const transport = new StreamableHTTPClientTransport(new URL(bridge.url));
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe("bridge-fixture");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("count");
    const seen: number[] = [];
    client.setNotificationHandler("notifications/progress", ({ params }) => void seen.push(params.progress));
    const result = await client.callTool({ name: "count", arguments: { to: 3 }, _meta: { progressToken: "sdk" } });
    expect([result.content, seen]).toEqual([[{ type: "text", text: "counted to 3" }], [1, 2, 3]]);
    const pid = bridge.serverPids().at(-1)!;
    await transport.terminateSession();
    await client.close();
    expect(await leftInGroups([pid])).toEqual([]);
  });
});

test("a session holds at most 64 waiting requests, and no more than 16 MiB its server has not read", async () => {
  // A server that answers initialize, then never reads its stdin again.
  const deaf = [
    process.execPath,
    "-e",
    `process.stdin.once("data", (d) => { const { id } = JSON.parse(String(d).split("\\n")[0]);
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "deaf", version: "0" } } }) + "\\n");
    process.stdin.pause(); }); setInterval(() => {}, 1000);`,
  ];
  const [waiting, deafBridge] = await Promise.all([startBridge(), startBridge(deaf)]);
  try {
    const session = await waiting.open();
    for (let id = 1; id <= 64; id++) void waiting.post(call(id, "wait", { ms: 60_000 }), session).catch(() => {});
    while (waiting.stderr.filter((line) => line.endsWith("stderr: waiting 60000 ms")).length < 64) await sleep(20);
    const refused = await waiting.post(call(65, "wait", { ms: 1 }), session);
    expect([refused.status, (await errorOf(refused)).error.message]).toEqual([
      503,
      "64 requests are already waiting in this session",
    ]);

    const deafSession = await deafBridge.open();
    const big = { jsonrpc: "2.0", method: "notifications/message", params: { data: "x".repeat(4_000_000) } };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await deafBridge.post(big, deafSession)).status);
    expect(statuses.slice(0, 4)).toEqual([202, 202, 202, 202]);
    const last = await deafBridge.post(big, deafSession);
    expect([last.status, (await errorOf(last)).error.message]).toEqual([
      503,
      "the server is not reading what it was sent",
    ]);
  } finally {
    expect([await waiting.stop(), await deafBridge.stop()]).toEqual([143, 143]);
  }
});

test("SIGTERM stops every server's whole process group, even a request still waiting, and exits with 143", async () => {
  const bridge = await startBridge();
  const [first, second] = [await bridge.open(), await bridge.open()];
  const grandchild = Number(
    ((await (await bridge.post(call(1, "spawn"), first)).json()) as { result: { content: [{ text: string }] } }).result
      .content[0].text,
  );
  const waiting = bridge
    .post(call(2, "wait", { ms: 60_000 }), second)
    .then((response) => response.text())
    .catch(() => "connection closed");
  await sleep(100);
  const groups = bridge.serverPids();
  expect(groups).toHaveLength(2);
  expect(await leftInGroups(groups, 0)).toContain(grandchild);
  expect(await bridge.stop("SIGTERM")).toBe(143);
  expect(await leftInGroups([bridge.child.pid!, ...groups])).toEqual([]);
  await waiting;
});

test("without a command it serves the SDK server with every stdio feature, progress included", async () => {
  const bridge = await startBridge(null);
  try {
    const client = new Client({ name: "bridge-test", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    const seen: string[] = [];
    client.setNotificationHandler(
      "notifications/progress",
      ({ params }) => void seen.push(`${params.progress}/${params.total}`),
    );
    const result = await client.callTool({ name: "count_slowly", arguments: { to: 2 }, _meta: { progressToken: 1 } });
    expect([result.content, seen]).toEqual([[{ type: "text", text: "Counted to 2." }], ["1/2", "2/2"]]);
    await client.close();
  } finally {
    expect(await bridge.stop("SIGINT")).toBe(130);
  }
});
