// ask.ts as a process, against a local server standing in for the API: what it sends, what it never shows (the key,
// even when the server quotes it back), and the refusals that happen before anything is sent.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startScriptedModel } from "./scripted-model.ts";
import { groupsBelow, leftAfter } from "./test/tree.ts";

const KEY = "sk-test-SECRET-1234";
const project = mkdtempSync(path.join(tmpdir(), "learn-mcp-ask-test-"));
// One server, which says on stderr whether it was handed the host's API key.
const adder = fileURLToPath(new URL("./test/adder.mjs", import.meta.url));
writeFileSync(
  path.join(project, ".mcp.json"),
  JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [adder] } } }),
);
const received: { headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
// A hostile API: it refuses every request with a message that quotes the key it was sent.
const api = createServer((request, response) => {
  let body = "";
  request
    .on("data", (chunk) => (body += chunk))
    .on("end", () => {
      received.push({ headers: request.headers, body: JSON.parse(body) });
      const message = `invalid x-api-key: ${request.headers.authorization?.replace("Bearer ", "")}`;
      response
        .writeHead(401, { "content-type": "application/json" })
        .end(JSON.stringify({ type: "error", error: { type: "authentication_error", message } }));
    });
});
let url = "";
beforeAll(
  () =>
    new Promise<void>((resolve) =>
      api.listen(0, "127.0.0.1", () => resolve(void (url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`))),
    ),
);
afterAll(() => {
  api.close();
  rmSync(project, { recursive: true, force: true });
});

function ask(args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  const program = fileURLToPath(new URL("./ask.ts", import.meta.url));
  const { ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_MODEL, ANTHROPIC_AUTH_TOKEN, ...clean } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), program, "--project", project, ...args],
      { env: { ...clean, ...env } },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

test("the key goes to the API as a bearer token only: not to the servers, not to output quoting it", async () => {
  const result = await ask(["hi"], {
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_MODEL: "claude-haiku-5-5",
  });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe(
    `host:  asks claude-haiku-5-5 at ${url}\nuser:  hi\nhost:  server calc: ready, 1 tool\nagent: 401 invalid x-api-key: ***\nevery server closed, no process left\n`,
  );
  expect(result.stdout + result.stderr).not.toContain("SECRET");
  expect(result.stderr).toContain("[calc] ANTHROPIC_API_KEY is not set here");
  expect(received).toHaveLength(1); // a 401 is not retried
  expect(received[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(received[0]!.body).toMatchObject({
    model: "claude-haiku-5-5",
    stream: true,
    messages: [{ role: "user", content: "hi" }],
    tools: [{ name: "mcp__calc__add" }],
  });
});

test("no key, or a bad number: a usage error before anything is sent", async () => {
  received.length = 0;
  const noKey = await ask(["hi"], { ANTHROPIC_BASE_URL: url });
  expect([noKey.status, noKey.stderr.split("\n")[0]]).toEqual([
    64,
    "error: ANTHROPIC_API_KEY is not set; nothing was sent",
  ]);
  const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url };
  const badTurns = await ask(["--max-turns", "0", "hi"], env);
  expect([badTurns.status, badTurns.stderr.split("\n")[0]]).toEqual([
    64,
    "error: bad --max-turns: 0 (a whole number, 1 to 1000)",
  ]);
  expect(received).toEqual([]);
});

test("escape sequences and control characters from the model, in text or a tool name, are never printed", async () => {
  const name = "mcp__calc__add\u001b[2J\u0007";
  const model = await startScriptedModel([
    {
      expect: { prompt: "go" },
      reply: [
        { type: "text", text: "\u001b]0;pwned\u0007hello \u001b[31mworld\r\u009b1m" },
        { type: "tool_use", name, input: { a: 1 } },
      ],
    },
    {
      expect: {
        toolResults: [
          { content: [{ type: "text", text: `unknown tool "${name}": no server offers it` }], is_error: true },
        ],
      },
      reply: [{ type: "text", text: "done" }],
    },
  ]);
  try {
    const result = await ask(["go"], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: model.url });
    expect([result.status, model.failures]).toEqual([0, []]);
    expect(result.stdout).toContain(
      'model: hello world\nhost:  mcp__calc__add {"a":1}\nhost:  error [{"type":"text","text":"unknown tool \\"mcp__calc__add\\u001b[2J\\u0007\\": no server offers it"}]\n',
    );
    expect(result.stdout + result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  } finally {
    await model.close();
  }
});

test("a second SIGINT changes nothing: a server ignoring SIGTERM is SIGKILLed and named; none left", async () => {
  // A launcher that ignores SIGTERM and the end of its stdin, with its server; and an API that never answers.
  const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-ask-signal-"));
  const wrapper = fileURLToPath(new URL("./fixtures/wrapper.mjs", import.meta.url));
  writeFileSync(
    path.join(folder, ".mcp.json"),
    JSON.stringify({ mcpServers: { stubborn: { command: process.execPath, args: [wrapper, "stubborn"] } } }),
  );
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const env = {
    ...process.env,
    ANTHROPIC_API_KEY: KEY,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
  };
  const program = fileURLToPath(new URL("./ask.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, "--project", folder, "hi"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  try {
    while (!stderr.includes("stubborn ready")) await sleep(50); // its servers are up; the request to the API waits
    const [group] = groupsBelow(child.pid!);
    child.kill("SIGINT");
    await sleep(100); // the first one is being handled: the host is stopping its server
    child.kill("SIGINT");
    const [status, signal] = await once(child, "close"); // not "exit": "close" comes once stderr has ended
    expect([status, signal]).toEqual([130, null]);
    expect(await leftAfter([group!], 0)).toEqual([]);
    expect(stderr).toContain(`[stubborn] still running 2000 ms after SIGTERM: SIGKILL to its process group ${group}\n`);
  } finally {
    silent.closeAllConnections();
    silent.close();
    rmSync(folder, { recursive: true, force: true });
  }
}, 30_000);
