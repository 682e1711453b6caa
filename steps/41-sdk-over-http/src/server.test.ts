// server.ts as a client meets it: a separate process on a free port, reached by the SDK's HTTP client in each mode
// and by plain requests that it must refuse, then stopped by each signal with a call still streaming.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect as connectSocket } from "node:net";
import { request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport, type ClientOptions } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => void server.child.kill("SIGKILL"));

describe("the SDK client reaches it in every mode", () => {
  it.each([
    ["legacy", "legacy", "legacy", "2025-11-25"],
    ["auto", "auto", "modern", "2026-07-28"],
    ["pinned", { pin: "2026-07-28" }, "modern", "2026-07-28"],
  ] as const)("%s: lists the tools and adds 2 + 40", async (_label, mode, era, version) => {
    const client = await connect(server.url, mode);
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual([era, version]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add", "count_slowly"]);
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toMatchObject({
      content: [{ type: "text", text: "42" }],
    });
    await client.close();
  });

  it.each([
    ["legacy", "legacy"],
    ["modern", { pin: "2026-07-28" }],
  ] as const)("%s: count_slowly streams each progress step before its result", async (_label, mode) => {
    const client = await connect(server.url, mode);
    const seen: number[] = [];
    client.setNotificationHandler("notifications/progress", ({ params }) => void seen.push(params.progress));
    const result = await client.callTool({ name: "count_slowly", arguments: { to: 3 }, _meta: { progressToken: "t" } });
    expect(seen).toEqual([1, 2, 3]);
    expect(result).toMatchObject({ content: [{ type: "text", text: "Counted to 3." }] });
    await client.close();
  });
});

describe("bad requests get the status the specification names, and the server keeps serving", () => {
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
  it.each([
    ["a foreign Host", "POST", { ...json, host: "evil.example" }, ping, 403, -32000, "Invalid Host: evil.example"],
    [
      "a foreign Origin",
      "POST",
      { ...json, origin: "https://evil.example" },
      ping,
      403,
      -32000,
      "Invalid Origin: https://evil.example",
    ],
    [
      "text/plain",
      "POST",
      { ...json, "content-type": "text/plain" },
      ping,
      415,
      -32000,
      "Content-Type must be application/json",
    ],
    [
      "an Accept without text/event-stream",
      "POST",
      { ...json, accept: "application/json" },
      ping,
      406,
      -32000,
      "must accept both",
    ],
    ["malformed JSON", "POST", json, '{"jsonrpc":', 400, -32700, "Parse error"],
    [
      "a 5 MiB body, announced",
      "POST",
      { ...json, "content-length": String(5 * 1024 * 1024) },
      undefined,
      413,
      -32000,
      "must not exceed 4194304 bytes",
    ],
    [
      "a GET, which stateless serving has no stream for",
      "GET",
      { accept: "text/event-stream" },
      undefined,
      405,
      -32000,
      "Method not allowed",
    ],
  ] as const)("%s", async (_name, method, headers, body, status, code, message) => {
    const answer = await raw(server.url, method, headers, body);
    expect(answer.status).toBe(status);
    const { error, id } = JSON.parse(answer.body) as { error: { code: number; message: string }; id: unknown };
    expect([error.code, id]).toEqual([code, null]);
    expect(error.message).toContain(message);
    const client = await connect(server.url, "legacy");
    await client.ping();
    await client.close();
  });

  it("lets a page served from localhost in, and answers 404 off /mcp", async () => {
    const allowed = await raw(server.url, "POST", { ...json, origin: "http://localhost:5173" }, ping);
    expect(allowed.status).toBe(200);
    expect((await raw(server.url.replace("/mcp", "/other"), "POST", json, ping)).status).toBe(404);
  });
});

testHostileRequests(() => server.url);

describe("slow requests", () => {
  it("answers 408 and closes a connection whose headers do not arrive within the headers timeout", async () => {
    const socket = connectSocket(Number(new URL(server.url).port), "127.0.0.1", () =>
      socket.write("POST /mcp HTTP/1.1\r\nhost: localhost\r\n"),
    );
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    await once(socket, "close");
    expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  }, 15_000);
});

describe("starting and stopping", () => {
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

  // One server per signal, all at once. The SDK client does not fail a request whose stream ends without its
  // result: it only finds out at its timeout, so the calls here carry a short one.
  it("SIGINT, SIGTERM and SIGHUP with a call still streaming: each server exits 0 at once", async () => {
    const stopWith = async (signal: NodeJS.Signals) => {
      const own = await startServer();
      const client = await connect(own.url, "legacy");
      let progressed: () => void;
      const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
      client.setNotificationHandler("notifications/progress", () => progressed());
      const call = client.callTool(
        { name: "count_slowly", arguments: { to: 100 }, _meta: { progressToken: 1 } },
        { timeout: 3000 },
      );
      const outcome = call.then(
        () => "answered",
        (error: Error) => error.message,
      );
      await firstProgress;
      const killed = Date.now();
      own.child.kill(signal);
      const [code] = await own.exited;
      const ms = Date.now() - killed;
      const stopped = own.stderr.filter(
        (line) =>
          line.startsWith(`[server] ${signal}: closing`) ||
          /^\[server\] count_slowly stopped after \d+ of 100/.test(line),
      );
      const result = { signal, code, quick: ms < 2000, stopped: stopped.length, outcome: await outcome };
      await client.close();
      return result;
    };
    const results = await Promise.all((["SIGINT", "SIGTERM", "SIGHUP"] as const).map(stopWith));
    for (const result of results)
      expect(result).toEqual({ signal: result.signal, code: 0, quick: true, stopped: 2, outcome: "Request timed out" });
  });
});
