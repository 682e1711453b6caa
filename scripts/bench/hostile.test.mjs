// The HTTP programs of scripts/ keep serving whatever a client sends: a body that is no JSON (the floor and the least
// bridge, which check nothing else), a request-target URL cannot parse, and the Host and Origin forms of chapter 24's
// rule (the SDK rows and the conformance server, which check them). Each request goes on a raw socket, then a good one.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";

const folder = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-bench-hostile-"));
const children = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await Promise.all(children.map((child) => child.exitCode ?? once(child, "exit")));
  rmSync(folder, { recursive: true, force: true });
});

/** Starts `args` under tsx and resolves with the port of the URL it prints as `listening on URL`. */
async function start(...args) {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  for await (const line of createInterface({ input: child.stderr })) {
    const port = /^listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)?.[1];
    if (port) return Number(port);
  }
  throw new Error(`${args[0]} exited without listening`);
}

/** `head` and `body` written on a fresh connection, which is not half-closed; the status it got, 0 for none. */
const raw = (port, head, body = "") =>
  new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head}\r\nconnection: close\r\n\r\n${body}`));
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk) => (answer += chunk));
    socket
      .on("error", () => {})
      .on("close", () =>
        resolve({ status: Number(answer.slice(9, 12)) || 0, body: answer.slice(answer.indexOf("\r\n\r\n") + 4) }),
      );
  });
const ADD = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "add",
    arguments: { a: 2, b: 40 },
    _meta: {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    },
  },
});
const post = (port, body, ...headers) => {
  const modern = ["mcp-protocol-version: 2026-07-28", "mcp-method: tools/call", "mcp-name: add"];
  const head = [
    "POST /mcp HTTP/1.1",
    "content-type: application/json",
    "accept: application/json, text/event-stream",
    ...modern,
    `content-length: ${Buffer.byteLength(body)}`,
  ];
  return raw(port, [...head, ...headers].join("\r\n"), body);
};

const ports = {};
beforeAll(async () => {
  const hand = [roleProgram("hand-written server"), folder];
  [ports.floor, ports.least, ports.sdk, ports.everything] = await Promise.all([
    start("scripts/bench/http-floor.ts"),
    start("scripts/bench/http-least-bridge.ts", "--", process.execPath, "--import", "tsx", ...hand),
    start("scripts/bench/http-sdk.ts", "json"),
    start("scripts/conformance/everything.ts", "--port", "0"),
  ]);
}, 60_000);

describe.each(["floor", "least", "sdk", "everything"])("%s", (name) => {
  it("answers a body that is no JSON without ending, and still answers", async () => {
    const answer = await post(ports[name], '{"jsonrpc":', "host: localhost");
    expect(answer.status).toBe(400);
    // The hand-written server behind the least bridge wants an initialize first: any JSON-RPC answer shows it still
    // serves.
    expect((await post(ports[name], ADD, "host: localhost")).body).toContain(
      name === "least" ? '"id":1' : '"text":"42"',
    );
  });
});

describe.each(["sdk", "everything"])("%s, which checks Host and Origin as chapter 24 does", (name) => {
  it.each([
    ["host: evil.com@localhost", 403],
    ["host: localhost.", 403],
    ["host: [0:0:0:0:0:0:0:1]", 403],
    ["host: localhost:99999", 403],
    ["host: localhost\r\nhost: evil.example", 400],
    ["host: localhost\r\norigin: null", 403],
    ["host: LOCALHOST:3000\r\norigin: http://[::1]:5173", 200],
  ])("%j: %d", async (headers, status) => {
    expect((await post(ports[name], ADD, headers)).status).toBe(status);
    expect((await post(ports[name], ADD, "host: 127.0.0.1")).status).toBe(200);
  });

  it.each(["//%", "//[", "//:99999", "http://["])("GET %s: 400, and it keeps serving", async (target) => {
    expect((await raw(ports[name], `GET ${target} HTTP/1.1\r\nhost: localhost`)).status).toBe(400);
    expect((await post(ports[name], ADD, "host: 127.0.0.1")).status).toBe(200);
  });
});
