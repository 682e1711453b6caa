// followToRedirectUri against a small HTTP server on 127.0.0.1 whose pages are written here: the walk to the redirect
// URI with a cookie to carry, and each way a page can fail it (not a redirect, a loop, silence).
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followToRedirectUri } from "./redirects.ts";

const pages: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/start": (_, response) =>
    response.writeHead(302, { location: "/login", "set-cookie": "session=s1; HttpOnly" }).end(),
  "/login": (request, response) =>
    request.headers.cookie === "session=s1"
      ? response.writeHead(302, { location: `${origin}/callback?code=c1&state=x` }).end()
      : response.writeHead(400).end("no session"),
  "/page": (_, response) => response.writeHead(200, { "content-type": "text/html" }).end("<form>log in</form>"),
  "/loop": (_, response) => response.writeHead(302, { location: "/loop" }).end(),
  "/silent": () => {}, // never answers
};
const asked: string[] = [];
const server = createServer((request, response) => {
  const path = new URL(request.url!, origin).pathname;
  asked.push(path);
  (pages[path] ?? ((_, res: ServerResponse) => res.writeHead(404).end()))(request, response);
});
let origin = "";

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const follow = (path: string, ms?: number) => followToRedirectUri(new URL(path, origin), `${origin}/callback`, ms);

describe("followToRedirectUri", () => {
  it("follows redirects carrying the server's cookie, and returns the redirect URI's query unasked", async () => {
    asked.length = 0;
    const query = await follow("/start");
    expect(Object.fromEntries(query)).toEqual({ code: "c1", state: "x" });
    expect(asked).toEqual(["/start", "/login"]);
  });

  it("fails on a page that is not a redirect, naming its status and path", async () => {
    await expect(follow("/page")).rejects.toThrow("the authorization server answered 200 at /page, not a redirect");
  });

  it("gives up after 10 redirects", async () => {
    await expect(follow("/loop")).rejects.toThrow("the authorization server redirected more than 10 times");
  });

  it("fails on a page that does not answer in time", { timeout: 5_000 }, async () => {
    await expect(follow("/silent", 300)).rejects.toThrow(/^no answer at \/silent: .*timeout/);
  });
});
