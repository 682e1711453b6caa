// Test helper: requests written byte by byte on a socket, as neither fetch nor node's http client will send them (a
// forged or doubled Host, a request-target URL cannot parse), and the tests every HTTP server of these steps must pass.
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_BYTES_IN_FLIGHT, MAX_CONNECTIONS } from "../limits.ts";

/**
 * Writes `head` (the request line and headers, without the blank line) on a fresh connection; resolves with the answer,
 * or with status 0 when the connection closed without one.
 */
function rawRequest(url: string, head: string, body = ""): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    // Written, not ended: node's http server drops a request still being answered once the client half-closes.
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\nconnection: close\r\n\r\n${body}`));
    let text = "";
    const done = () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
    };
    // Done when the answer is complete, by its length or its last chunk: the SDK keeps an SSE answer's connection
    // alive.
    const complete = () => {
      const end = text.indexOf("\r\n\r\n");
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1];
      return (
        end !== -1 &&
        (length !== undefined
          ? Buffer.byteLength(text.slice(end + 4)) >= Number(length)
          : text.endsWith("\r\n0\r\n\r\n"))
      );
    };
    socket
      .setEncoding("utf8")
      .on("data", (chunk: string) => ((text += chunk), complete() && (done(), socket.destroy())));
    socket.on("error", () => {}); // a connection the server closed unanswered: "close" follows, with status 0
    socket.on("close", done);
  });
}

// A 2026-07-28 server/discover: answered 200 by every server here, in a session or not, as the request carries its era.
const DISCOVER = {
  jsonrpc: "2.0",
  id: 1,
  method: "server/discover",
  params: {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
};

/** server/discover POSTed to /mcp with these header lines, and nothing else that could be refused. */
const discover = (...headers: string[]) => {
  const body = JSON.stringify(DISCOVER);
  const modern = ["mcp-protocol-version: 2026-07-28", "mcp-method: server/discover"];
  const head = [
    "POST /mcp HTTP/1.1",
    "content-type: application/json",
    "accept: application/json, text/event-stream",
    ...modern,
    `content-length: ${body.length}`,
    ...headers,
  ];
  return { head: head.join("\r\n"), body };
};

/** Host values, and the status each must get: only the three spellings of this machine, with a port in range, pass. */
const HOSTS: [string, number][] = [
  ["localhost", 200],
  ["LOCALHOST:3000", 200],
  ["127.0.0.1", 200],
  ["127.0.0.1:65535", 200],
  ["[::1]:8080", 200],
  ["evil.com@localhost", 403],
  ["localhost.", 403],
  ["localhost.evil.com", 403],
  ["evil.example", 403],
  ["127.0.0.2", 403],
  ["[::1", 403],
  ["[0:0:0:0:0:0:0:1]", 403],
  ["localhost:0", 403],
  ["localhost:99999", 403],
  ["localhost:", 403],
  ["local host", 403],
  ["", 403],
];

/** Origin values and their status; a request without Origin (any client but a browser) passes. */
const ORIGINS: [string, number][] = [
  ["http://localhost:5173", 200],
  ["HTTPS://127.0.0.1", 200],
  ["http://[::1]:3000", 200],
  ["null", 403],
  ["https://evil.example", 403],
  ["http://evil.com@localhost", 403],
  ["http://localhost.evil.com", 403],
  ["http://localhost/", 403],
  ["file://localhost", 403],
  ["localhost", 403],
];

/** Request-targets that are no path: `new URL()` throws on the first four, which once ended the server that met them,
 * and reads the last as the path /mcp of a host named evil. */
const UNPARSEABLE_TARGETS = ["//%", "//[", "//:99999", "http://[", "http://127.0.0.1/mcp", "*", "//evil/mcp"];

/**
 * The server at `url()` answers each of these and keeps serving. `headers()` are added to every request (a token, where
 * one is needed). With several `workers`, each has its own bounds, and which one a connection reaches is the primary's
 * choice: the connection bound is tested with a single worker.
 */
export function testHostileRequests(url: () => string, { headers = () => [] as string[], workers = 1 } = {}): void {
  describe("every request gets an answer, and nothing a client sends ends the server", () => {
    const served = async () => {
      const { head, body } = discover("host: 127.0.0.1", ...headers());
      expect((await rawRequest(url(), head, body)).status).toBe(200);
    };
    const refusal = (body: string) =>
      JSON.parse(body) as { jsonrpc: string; error: { code: number; message: string }; id: null };

    it.each(HOSTS)("Host %j: %d", async (host, status) => {
      const { head, body } = discover(`host: ${host}`, ...headers());
      const answer = await rawRequest(url(), head, body);
      expect(answer.status).toBe(status);
      if (status === 403)
        expect(refusal(answer.body)).toEqual({
          jsonrpc: "2.0",
          error: { code: -32000, message: `Invalid Host: ${host}` },
          id: null,
        });
      await served();
    });

    it.each(ORIGINS)("Origin %j: %d", async (origin, status) => {
      const { head, body } = discover("host: localhost", `origin: ${origin}`, ...headers());
      const answer = await rawRequest(url(), head, body);
      expect(answer.status).toBe(status);
      if (status === 403) expect(refusal(answer.body).error.message).toBe(`Invalid Origin: ${origin}`);
      await served();
    });

    it.each([
      ["two Host headers", discover("host: localhost", "host: evil.example", ...headers())],
      [
        "no Host header (HTTP/1.0, which may omit it)",
        { ...discover(...headers()), head: discover(...headers()).head.replace("HTTP/1.1", "HTTP/1.0") },
      ],
      ["no Host header (HTTP/1.1, which must send one)", discover(...headers())],
    ])("%s: 400", async (_name, { head, body }) => {
      const answer = await rawRequest(url(), head, body);
      expect([answer.status, refusal(answer.body).error.message]).toEqual([
        400,
        "Bad Request: a request needs exactly one Host header",
      ]);
      await served();
    });

    it.each(UNPARSEABLE_TARGETS)("GET %s: 400, not a crash", async (target) => {
      const answer = await rawRequest(url(), `GET ${target} HTTP/1.1\r\nhost: localhost`);
      expect([answer.status, refusal(answer.body).error.message]).toEqual([
        400,
        "Bad Request: the request-target is not a path",
      ]);
      await served();
    });
  });

  describe("bounds: connections and the bodies being read", () => {
    const open = (count: number) =>
      Promise.all(
        Array.from(
          { length: count },
          () =>
            new Promise<Socket>((resolve) => {
              const socket = connect(Number(new URL(url()).port), "127.0.0.1", () => resolve(socket));
            }),
        ),
      );
    const sendDiscover = () => {
      const { head, body } = discover("host: localhost", ...headers());
      return rawRequest(url(), head, body);
    };
    // Asks until an answer has `status`, for 5 s at most.
    const until = async (status: number) => {
      let answer = { status: 0, body: "" };
      for (const since = Date.now(); Date.now() - since < 5000 && answer.status !== status;)
        answer = await sendDiscover();
      return answer;
    };

    it.skipIf(workers > 1)(
      `answers connection ${MAX_CONNECTIONS + 1} with 503 while ${MAX_CONNECTIONS} are open, and serves again once they close`,
      async () => {
        const held = await open(MAX_CONNECTIONS);
        // the server counts a connection once it has accepted it: wait for all of them
        const refused = await until(503);
        const message = "Service Unavailable: too many connections; try again";
        expect([refused.status, JSON.parse(refused.body)]).toEqual([
          503,
          { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
        ]);
        for (const socket of held) socket.destroy();
        expect((await until(200)).status).toBe(200);
      },
    );

    const bodies = MAX_BYTES_IN_FLIGHT / MAX_BODY_BYTES;
    it(`answers 503 while ${bodies} announced ${MAX_BODY_BYTES}-byte bodies (per worker) are being read, and 200 once they are gone`, async () => {
      const held = await open(bodies * workers);
      const head = [
        "POST /mcp HTTP/1.1",
        "host: localhost",
        "content-type: application/json",
        `content-length: ${MAX_BODY_BYTES}`,
      ];
      for (const socket of held) socket.write(`${head.join("\r\n")}\r\n\r\n{"jsonrpc"`);
      const refused = await until(503); // each held body is counted once its headers are read: wait for all of them
      const message = "Service Unavailable: too many request bodies are being read; try again";
      expect([refused.status, JSON.parse(refused.body)]).toEqual([
        503,
        { jsonrpc: "2.0", error: { code: -32000, message }, id: null },
      ]);
      for (const socket of held) socket.destroy();
      expect((await until(200)).status).toBe(200);
    });
  });
}
