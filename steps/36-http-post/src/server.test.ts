// The bridge over real sockets on 127.0.0.1, in front of real processes: mostly the plain-Node fixture server, which
// starts fast, and the SDK server with every stdio feature once, where the lesson needs it.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call, JSON_HEADERS, rawRequest, startBridge, stopAll, type Bridge } from "./test/bridge.ts";

afterAll(stopAll); // a bridge whose test timed out before its own stop

const ping = (id: number | string = 1) => ({ jsonrpc: "2.0", id, method: "ping" });
/** Whether a process is still running, as ps sees it (Linux and macOS alike): a zombie, state Z, has exited. */
const alive = (pid: number) => {
  try {
    return !execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" })
      .trim()
      .startsWith("Z");
  } catch {
    return false; // ps exits 1 when there is no such process
  }
};

describe("in front of the fixture server", () => {
  let bridge: Bridge;
  beforeAll(async () => (bridge = await startBridge()));
  afterAll(async () => expect(await bridge.stop()).toBe(143));

  test("a request's answer is its POST's JSON body; a notification or a response gets 202, no body", async () => {
    const initialize = await bridge.post({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-06-18" },
    });
    expect([initialize.status, initialize.headers.get("content-type")]).toEqual([200, "application/json"]);
    expect(await initialize.json()).toMatchObject({ id: "init", result: { protocolVersion: "2025-06-18" } });
    const notification = await bridge.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect([notification.status, await notification.text()]).toEqual([202, ""]);
    // an answer to no request is forwarded too
    const response = await bridge.post({ jsonrpc: "2.0", id: 5, result: {} });
    expect([response.status, await response.text()]).toEqual([202, ""]);
    expect(await (await bridge.post(ping(3))).json()).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    // JSON spread over lines is valid JSON; the server, which reads lines, still gets it on one.
    expect(await rawRequest(bridge.url, "POST", JSON_HEADERS, JSON.stringify(ping(7), null, 2))).toMatchObject({
      status: 200,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, result: {} }),
    });
  });

  test("a body that is not JSON gets 400, and a GET 405, naming POST; the bridge keeps serving", async () => {
    expect((await rawRequest(bridge.url, "POST", JSON_HEADERS, '{"jsonrpc":')).status).toBe(400);
    const get = await rawRequest(bridge.url, "GET", { accept: "text/event-stream" });
    expect([get.status, get.headers.allow]).toEqual([405, "POST"]);
    expect((await bridge.post(ping())).status).toBe(200);
  });

  test("an answer is one JSON body, and what the server sends on its own is dropped", async () => {
    const counted = await bridge.post(call(1, "count", { to: 2 }, { progressToken: "p" }));
    expect(counted.headers.get("content-type")).toBe("application/json");
    expect(await counted.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "counted to 2" }] },
    });
    const logged = await bridge.post(call(2, "log"));
    expect(await logged.json()).toMatchObject({ id: 2, result: { content: [{ text: "logged" }] } });
    expect(bridge.stderr.filter((line) => line.startsWith("[bridge] the session: dropped"))).toEqual([
      "[bridge] the session: dropped notifications/progress",
      "[bridge] the session: dropped notifications/progress",
      "[bridge] the session: dropped notifications/message",
    ]);
  });

  test("two requests at once: each answer goes to the POST that sent it", async () => {
    const slow = bridge.post(call("slow", "wait", { ms: 400 }));
    const fast = bridge.post(call("fast", "wait", { ms: 10 }));
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

  test("the SDK's Streamable HTTP client works through the bridge, in legacy mode", async () => {
    const client = new Client({ name: "bridge-test", version: "0.1.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    expect(client.getServerVersion()?.name).toBe("bridge-fixture");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("count");
    const result = await client.callTool({ name: "count", arguments: { to: 3 } });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    await client.close();
  });
});

test("a server that exits mid-request fails the POST with -32603, and the bridge exits", async () => {
  const bridge = await startBridge();
  const answer = await bridge.post(call(7, "crash"));
  expect(await answer.json()).toEqual({
    jsonrpc: "2.0",
    id: 7,
    error: { code: -32603, message: "the server exited with code 3 before it answered" },
  });
  const [code] = bridge.child.exitCode === null ? await once(bridge.child, "exit") : [bridge.child.exitCode];
  expect(code).toBe(0);
  expect(bridge.stderr).toContain("[bridge] the session: the server exited with code 3; the session ends");
});

test("SIGTERM ends the bridge with 143, and its server exits once its stdin ends", async () => {
  const bridge = await startBridge();
  expect((await bridge.post(ping())).status).toBe(200);
  const [pid] = bridge.serverPids();
  expect(alive(pid!)).toBe(true);
  expect(await bridge.stop("SIGTERM")).toBe(143);
  while (alive(pid!)) await sleep(20);
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
