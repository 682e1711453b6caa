// server.ts as a cluster: two workers behind one port. Each request here goes on a connection of its own, so the
// primary may hand it to either worker; the tests say which answered from the x-served-by header.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { leftInGroups } from "./groups.ts";
import { testHostileRequests } from "./test/hostile-requests.ts";

const program = fileURLToPath(new URL("./server.ts", import.meta.url));
vi.setConfig({ testTimeout: 60_000 }); // a cluster of tsx processes starts slowly on a loaded machine

// detached: the primary leads a process group of its own, which its workers join; the tests check that group.
async function startServer(args = ["--port", "0", "--workers", "2"]) {
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
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
  const workerPids = () => stderr.flatMap((line) => /is pid (\d+)/.exec(line)?.[1] ?? []).map(Number);
  const boardFolder = () => /the board is (.*)\/board\.jsonl$/m.exec(stderr.join("\n"))?.[1];
  return { url: url!, child, stderr, exited, workerPids, boardFolder };
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};
const JSON_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  connection: "close",
};

/** One request on a fresh connection: its status, the worker that answered, and the JSON-RPC answer (JSON or SSE). */
async function post(
  url: string,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const name = params.name ?? params.uri; // Mcp-Name carries the tool's name, or the resource's URI
  const modern =
    "_meta" in params
      ? {
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...(typeof name === "string" ? { "mcp-name": name } : {}),
        }
      : {};
  const response = await fetch(url, {
    method: "POST",
    headers: { ...JSON_HEADERS, ...modern, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  const json = text.startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "{}");
  return {
    status: response.status,
    worker: response.headers.get("x-served-by"),
    session: response.headers.get("mcp-session-id"),
    body: JSON.parse(json) as { result?: Record<string, unknown> },
  };
}
const add = (a: number) => ({ name: "add", arguments: { a, b: 40 }, _meta: ENVELOPE });

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  server.child.kill("SIGTERM");
  await server.exited;
});

describe("2026-07-28 requests land anywhere", () => {
  it("answers a burst of 16, each on its own connection, and both workers take part", async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => post(server.url, "tools/call", add(i))));
    answers.forEach((answer, i) =>
      expect([answer.status, answer.body.result?.content]).toEqual([200, [{ type: "text", text: String(i + 40) }]]),
    );
    // The primary hands connections to whichever worker is free, so a burst may favor one; one at a time, both answer.
    const workers = new Set(answers.map((answer) => answer.worker));
    for (let i = 0; i < 20 && workers.size < 2; i++) workers.add((await post(server.url, "tools/call", add(i))).worker);
    expect([...workers].sort()).toEqual(["worker 1", "worker 2"]);
  });

  it("keeps the board in one place: what one worker writes, the other reads", async () => {
    const written = await post(server.url, "tools/call", {
      name: "post_message",
      arguments: { text: "shared" },
      _meta: ENVELOPE,
    });
    let read;
    do read = await post(server.url, "resources/read", { uri: "board://messages", _meta: ENVELOPE });
    while (read.worker === written.worker);
    expect(read.body.result?.contents).toEqual([expect.objectContaining({ text: expect.stringContaining("shared") })]);
  });
});

describe("a 2025 session lives in one worker", () => {
  it("is found by the worker that opened it and unknown to the other", async () => {
    const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } };
    const opened = await post(server.url, "initialize", init);
    expect(opened.status).toBe(200);
    const statuses = new Map<string, number>();
    for (let i = 0; i < 20 && statuses.size < 2; i++) {
      const ping = await post(server.url, "ping", {}, { "mcp-session-id": opened.session! });
      statuses.set(ping.worker!, ping.status);
    }
    const other = opened.worker === "worker 1" ? "worker 2" : "worker 1";
    expect(Object.fromEntries(statuses)).toEqual({ [opened.worker!]: 200, [other]: 404 });
  });
});

describe("changes reach listeners in every worker", () => {
  it("delivers a post made through one worker to a listen stream held by the other", async () => {
    let listenWorker = "";
    const noteWorker = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (new Headers(init?.headers).get("mcp-method") === "subscriptions/listen")
        listenWorker = response.headers.get("x-served-by")!;
      return response;
    }) as typeof fetch;
    const listener = new Client(
      { name: "test", version: "0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await listener.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: noteWorker }));
    // Every post notifies the listener, once the bus carries it there: count them, and wait for one per post.
    let notified = 0;
    listener.setNotificationHandler(
      "notifications/resources/updated",
      ({ params }) => void (params.uri === "board://messages" && notified++),
    );
    const subscription = await listener.listen({ resourceSubscriptions: ["board://messages"] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["board://messages"] });

    let posts = 0;
    let posted;
    do {
      posted = await post(server.url, "tools/call", {
        name: "post_message",
        arguments: { text: "hello" },
        _meta: ENVELOPE,
      });
      posts++;
    } while (posted.worker === listenWorker);
    for (let waited = 0; waited < 5000 && notified < posts; waited += 50) await sleep(50);
    expect({ posts, notified }).toEqual({ posts, notified: posts });
    await subscription.close();
    await listener.close();
  });
});

// Each worker has its own bounds; a request that once ended a worker ended the whole cluster.
testHostileRequests(() => server.url, { workers: 2 });

describe.concurrent("starting and stopping", () => {
  it.each([[["--workers", "17"]], [["--threads", "2"]], [["--workers"]], [["--port", "1e3"]]])(
    "refuses %j with its usage and exit 64",
    async (args) => {
      const bad = await startServer(args);
      expect([(await bad.exited)[0], bad.stderr]).toEqual([
        64,
        ["usage: server.ts [--port N] [--workers N (1 to 16)]"],
      ]);
    },
  );

  // One worker is enough: each worker listens, and fails, on its own; stopping the others is the next test's check.
  it("exits 1 when its port is taken: the workers cannot listen", async () => {
    const busy = await startServer(["--port", new URL(server.url).port, "--workers", "1"]);
    expect((await busy.exited)[0]).toBe(1);
    expect(busy.stderr).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\[worker \d\] cannot listen: .*EADDRINUSE/)]),
    );
  });

  it("stops the other worker and exits 1 when one dies", async () => {
    const own = await startServer();
    const [first] = own.workerPids();
    process.kill(first!, "SIGKILL");
    expect((await own.exited)[0]).toBe(1);
    expect(await leftInGroups([own.child.pid!])).toEqual([]);
    expect(own.stderr).toContain("[primary] worker 1 exited unasked (SIGKILL): stopping 1 worker(s)");
  });

  // Node's cluster ends each worker whose channel to the primary closes: one worker shows it.
  it("leaves no worker behind when the primary itself is killed", async () => {
    const own = await startServer(["--port", "0", "--workers", "1"]);
    const workers = own.workerPids();
    expect(workers).toHaveLength(1);
    own.child.kill("SIGKILL");
    await own.exited;
    expect(await leftInGroups([own.child.pid!], 5000)).toEqual([]);
    rmSync(own.boardFolder()!, { recursive: true, force: true }); // the primary had no chance to
  });
});

describe("stopping the server every test above used", () => {
  it("stops every worker on SIGTERM, and exits 0", async () => {
    const workers = server.workerPids();
    expect(workers).toHaveLength(2);
    server.child.kill("SIGTERM");
    expect((await server.exited)[0]).toBe(0);
    expect(await leftInGroups([server.child.pid!])).toEqual([]);
  });
});
