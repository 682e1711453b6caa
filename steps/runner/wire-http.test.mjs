// The HTTP tap against a real server on 127.0.0.1: what it reports for each exchange, what it masks, and that the
// program reading the response gets every byte unchanged.
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_BYTES } from "./wire-format.mjs";
import { tapFetch } from "./wire-http.mjs";

// Each path answers one way; SSE is written in pieces that cut events, and a line, in the middle.
const ROUTES = {
  "/json": (response) =>
    response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s-1" }).end('{"ok":true}'),
  "/sse": (response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const piece of [
      ': keep-alive\n\nevent: first\ndata: {"n"',
      ":1}\n\nid: 7\ndata: line one\ndata: line two\n\n",
      'data: {"access_token":"abc"}\r\n\r\n',
    ]) {
      response.write(piece);
    }
    response.end();
  },
  "/text": (response) =>
    response
      .writeHead(401, { "content-type": "text/plain", "www-authenticate": 'Bearer resource_metadata="x"' })
      .end("password=hunter2 rejected"),
  "/empty": (response) => response.writeHead(204).end(),
  "/huge": (response) =>
    response.writeHead(200, { "content-type": "application/json" }).end(`"${"x".repeat(MAX_LINE_BYTES)}"`),
};

let server;
let base;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    ROUTES[new URL(request.url, "http://x").pathname](response);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function tapped() {
  const lines = [];
  const fetch = tapFetch(
    globalThis.fetch,
    (direction, label, text) => lines.push(`${direction} [${label}] ${text}`),
    "1 main.ts",
  );
  return { fetch, lines };
}

describe("tapFetch", () => {
  it("shows the request line, the headers that matter with credentials masked, and a JSON body", async () => {
    const { fetch, lines } = tapped();
    const response = await fetch(`${base}/json?access_token=secret`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: "Bearer sk-live-123",
        "x-api-key": "sk-2",
        "user-agent": "noise",
      },
      body: JSON.stringify({ model: "m", api_key: "sk-3", text: "y".repeat(100) }),
    });
    expect(await response.json()).toEqual({ ok: true });
    expect(lines.join("\n")).not.toMatch(/secret|sk-live-123|sk-2|sk-3|noise/);
    expect(lines).toEqual([
      `-> [1 main.ts/http 1] POST ${base}/json?access_token=***  content-type: application/json  authorization: Bearer ***  x-api-key: ***`,
      `-> [1 main.ts/http 1] {"model":"m","api_key":"***","text":"${"y".repeat(80)}…(+20 chars)"}`,
      "<- [1 main.ts/http 1] 200 OK  content-type: application/json  mcp-session-id: s-1",
      '<- [1 main.ts/http 1] {"ok":true}',
    ]);
  });

  it("masks an authorization header of any scheme, and a token or key in the URL", async () => {
    const { fetch, lines } = tapped();
    await (
      await fetch(`${base}/json?token=t0k&key=k3y&page=2`, { headers: { authorization: "token ghp_0123456789" } })
    ).text();
    await (
      await fetch(`${base}/json?apikey=ap1`, { headers: { authorization: "DPoP eyJhbGciOi.eyJzdWIi.c2ln" } })
    ).text();
    const digest = 'Digest username="u1", response="9f86d0", opaque="o1"';
    await (
      await fetch(`${base}/json`, { headers: { "proxy-authorization": digest, authorization: "rawt0ken" } })
    ).text();
    // A first word that is no known scheme may be the credential: "ghp_9876 extra" would have kept ghp_9876 in view.
    await (await fetch(`${base}/json`, { headers: { authorization: "ghp_9876 extra" } })).text();
    expect(lines.join("\n")).not.toMatch(/t0k|k3y|ghp_|ap1|eyJ|u1|9f86d0|o1|rawt0ken/);
    expect(lines.filter((line) => line.startsWith("->"))).toEqual([
      `-> [1 main.ts/http 1] GET ${base}/json?token=***&key=***&page=2  authorization: token ***`,
      `-> [1 main.ts/http 2] GET ${base}/json?apikey=***  authorization: DPoP ***`,
      `-> [1 main.ts/http 3] GET ${base}/json  authorization: ***  proxy-authorization: Digest ***`,
      `-> [1 main.ts/http 4] GET ${base}/json  authorization: ***`,
    ]);
  });

  it("shows server-sent events one by one as they are read, and hands the stream over unchanged", async () => {
    const { fetch, lines } = tapped();
    const response = await fetch(`${base}/sse`);
    const text = await response.text();
    expect(text).toBe(
      ': keep-alive\n\nevent: first\ndata: {"n":1}\n\nid: 7\ndata: line one\ndata: line two\n\ndata: {"access_token":"abc"}\r\n\r\n',
    );
    expect(response.url).toBe(`${base}/sse`);
    expect(lines.slice(1)).toEqual([
      "<- [1 main.ts/http 1] 200 OK  content-type: text/event-stream",
      '<- [1 main.ts/http 1] event: first  {"n":1}',
      '<- [1 main.ts/http 1] event: message  id: 7  (not JSON) "line one\\nline two"',
      '<- [1 main.ts/http 1] event: message  {"access_token":"***"}',
    ]);
  });

  it("numbers exchanges, quotes a non-JSON body with secrets masked, passes a response without body", async () => {
    const { fetch, lines } = tapped();
    // a body is shown as it is read
    expect(await (await fetch(`${base}/text`)).text()).toBe("password=hunter2 rejected");
    expect((await fetch(`${base}/empty`, { method: "DELETE" })).status).toBe(204);
    expect(lines).toEqual([
      `-> [1 main.ts/http 1] GET ${base}/text`,
      '<- [1 main.ts/http 1] 401 Unauthorized  content-type: text/plain  www-authenticate: Bearer resource_metadata="x"',
      '<- [1 main.ts/http 1] (not JSON) "password=*** rejected"',
      `-> [1 main.ts/http 2] DELETE ${base}/empty`,
      "<- [1 main.ts/http 2] 204 No Content",
    ]);
  });

  it("counts a body over the tap's limit instead of keeping it, and the program still gets all of it", async () => {
    const { fetch, lines } = tapped();
    const body = await (await fetch(`${base}/huge`)).text();
    expect(body.length).toBe(MAX_LINE_BYTES + 2);
    expect(lines.at(-1)).toBe(
      `<- [1 main.ts/http 1] (not shown) a line of 16,777,218 bytes, over the 16,777,216 the tap keeps`,
    );
  });

  it("passes a failed request's error through", async () => {
    const { fetch, lines } = tapped();
    await expect(fetch("http://127.0.0.1:1/none")).rejects.toThrow("fetch failed");
    expect(lines).toEqual(["-> [1 main.ts/http 1] GET http://127.0.0.1:1/none"]);
  });
});
