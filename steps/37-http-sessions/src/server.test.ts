// The bridge over real sockets on 127.0.0.1, in front of real processes: mostly the plain-Node fixture server, which
// starts fast, and the SDK server with every stdio feature once, where the lesson needs it.
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { leftInGroups } from "./groups.ts";
import { call, JSON_HEADERS, rawRequest, startBridge, stopAll, type Bridge } from "./test/bridge.ts";

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
      ["malformed JSON", post({}, '{"jsonrpc":'), 400, -32700],
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
    // JSON spread over lines is valid JSON; the server, which reads lines, still gets it on one.
    expect(await post({}, JSON.stringify(ping(7), null, 2))).toMatchObject({
      status: 200,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, result: {} }),
    });
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

  test("an answer is one JSON body, and what the server sends on its own is dropped", async () => {
    const session = await bridge.open();
    const counted = await bridge.post(call(1, "count", { to: 2 }, { progressToken: "p" }), session);
    expect(counted.headers.get("content-type")).toBe("application/json");
    expect(counted.headers.get("mcp-session-id")).toBe(session);
    expect(await counted.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "counted to 2" }] },
    });
    const logged = await bridge.post(call(2, "log"), session);
    expect(await logged.json()).toMatchObject({ id: 2, result: { content: [{ text: "logged" }] } });
    const name = /(session \d+): started/.exec(bridge.stderr.find((line) => line.includes(session))!)![1];
    expect(bridge.stderr.filter((line) => line.startsWith(`[bridge] ${name}: dropped`))).toEqual([
      `[bridge] ${name}: dropped notifications/progress`,
      `[bridge] ${name}: dropped notifications/progress`,
      `[bridge] ${name}: dropped notifications/message`,
    ]);
  });

  test("two requests at once: each answer goes to the POST that sent it", async () => {
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

  test("the SDK's Streamable HTTP client works through the bridge, in legacy mode", async () => {
    const client = new Client({ name: "bridge-test", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
    const transport = new StreamableHTTPClientTransport(new URL(bridge.url));
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe("bridge-fixture");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("count");
    const result = await client.callTool({ name: "count", arguments: { to: 3 } });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    const pid = bridge.serverPids().at(-1)!;
    await transport.terminateSession();
    await client.close();
    expect(await leftInGroups([pid])).toEqual([]);
  });
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

test("without a command it serves the SDK server with every stdio feature", async () => {
  const bridge = await startBridge(null);
  try {
    const client = new Client({ name: "bridge-test", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 40 } });
    expect(result.content).toEqual([{ type: "text", text: "42" }]);
    await client.close();
  } finally {
    expect(await bridge.stop("SIGINT")).toBe(130);
  }
});
