// The scripted model refuses every request its script does not expect, with a 400 (or the status HTTP calls for) that
// says what differs, and keeps the refusal; it never answers on its own. Plain fetch, so each request is exactly as
// written.
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, test, vi } from "vitest";
import { loadScenario, type Turn } from "./scenario.ts";
import { startScriptedModel, type ScriptedModel } from "./scripted-model.ts";

const TURNS: Turn[] = [
  {
    expect: { prompt: "add 1 and 2", tools: ["mcp__calc__add"] },
    reply: [{ type: "tool_use", name: "mcp__calc__add", input: { a: 1, b: 2 } }],
  },
  { expect: { toolResults: [{ content: [{ type: "text", text: "3" }] }] }, reply: [{ type: "text", text: "3" }] },
];
const OFFERED = [
  { name: "mcp__calc__add", input_schema: { type: "object" } },
  { name: "mcp__calc__echo", input_schema: { type: "object" } },
];
const ask = (prompt: string, tools = OFFERED) => ({
  model: "m",
  max_tokens: 10,
  stream: true,
  tools,
  messages: [{ role: "user", content: prompt }],
});
const answerWith = (results: unknown[]) => ({
  ...ask("add 1 and 2"),
  messages: [...ask("add 1 and 2").messages, { role: "assistant", content: [] }, { role: "user", content: results }],
});
const result = (id: string, text: string, extra = {}) => ({
  type: "tool_result",
  tool_use_id: id,
  content: [{ type: "text", text }],
  ...extra,
});

let model: ScriptedModel;
afterEach(() => model?.close());

async function post(
  body: unknown,
  headers: Record<string, string> = { "x-api-key": "k" },
  url = `${model.url}/v1/messages`,
) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type"), text };
}
const refusal = (status: number, kind: string, message: string) => ({
  status,
  type: "application/json",
  text: JSON.stringify({ type: "error", error: { type: kind, message: `scripted model: ${message}` } }),
});

describe("a request the turn expects", () => {
  test("is answered as a stream of server-sent events, with ids the next turn's results must use", async () => {
    model = await startScriptedModel(TURNS);
    const first = await post(ask("add 1 and 2"), { authorization: "Bearer k" });
    expect(first.type).toBe("text/event-stream");
    const events = first.text
      .trimEnd()
      .split("\n\n")
      .map((event) => event.split("\n")[0]);
    expect(events).toEqual(
      [
        "message_start",
        "ping",
        "content_block_start",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ].map((name) => `event: ${name}`),
    );
    expect(first.text).toContain('"stop_reason":"tool_use"');
    expect(first.text).toContain('"id":"toolu_scripted_1_1"');
    expect((await post(answerWith([result("toolu_scripted_1_1", "3")]))).status).toBe(200);
    expect([model.failures, model.played(), model.playedAll()]).toEqual([[], "2 of 2 turns played", true]);
  });
});

describe("a request it does not expect is refused, and the refusal is kept", () => {
  test.each([
    ["another prompt", ask("add 2 and 2"), 'turn 1: expected the prompt "add 1 and 2", got "add 2 and 2"'],
    [
      "a tool missing",
      ask("add 1 and 2", OFFERED.slice(1)),
      "turn 1: expected the tools mcp__calc__add to be offered; offered: mcp__calc__echo",
    ],
    [
      "no streaming",
      { ...ask("add 1 and 2"), stream: false },
      "the request is not streaming: the scripted model answers only stream: true",
    ],
    [
      "the last message not the user's",
      { ...ask("x"), messages: [{ role: "assistant", content: "hi" }] },
      "the last message is not the user's",
    ],
  ])("%s", async (_, body, message) => {
    model = await startScriptedModel(TURNS);
    expect(await post(body)).toEqual(
      refusal(400, "invalid_request_error", message.startsWith("turn") ? message : `turn 1: ${message}`),
    );
    expect([model.failures, model.played()]).toEqual([
      [`scripted model: ${message.startsWith("turn") ? message : `turn 1: ${message}`}`],
      "0 of 2 turns played",
    ]);
  });

  test.each([
    [
      "a different result",
      [result("toolu_scripted_1_1", "4")],
      '[{"tool_use_id":"toolu_scripted_1_1","content":[{"type":"text","text":"4"}],"is_error":false}]',
    ],
    [
      "the right text flagged as an error",
      [result("toolu_scripted_1_1", "3", { is_error: true })],
      '[{"tool_use_id":"toolu_scripted_1_1","content":[{"type":"text","text":"3"}],"is_error":true}]',
    ],
    [
      "an id it never gave",
      [result("toolu_other", "3")],
      '[{"tool_use_id":"toolu_other","content":[{"type":"text","text":"3"}],"is_error":false}]',
    ],
    ["no result at all", [{ type: "text", text: "3" }], "[]"],
  ])("tool results: %s", async (_, results, got) => {
    model = await startScriptedModel(TURNS);
    await post(ask("add 1 and 2"));
    const wanted = '[{"tool_use_id":"toolu_scripted_1_1","content":[{"type":"text","text":"3"}],"is_error":false}]';
    expect(await post(answerWith(results))).toEqual(
      refusal(400, "invalid_request_error", `turn 2: expected the tool results ${wanted}, got ${got}`),
    );
  });

  test("a request after the last turn", async () => {
    model = await startScriptedModel(
      TURNS.slice(0, 1).map((turn) => ({ ...turn, reply: [{ type: "text", text: "ok" }] })),
    );
    await post(ask("add 1 and 2"));
    expect(await post(ask("add 1 and 2"))).toEqual(
      refusal(400, "invalid_request_error", "request 2, but the script has only 1 turns"),
    );
    expect(model.playedAll()).toBe(true);
  });

  test("bad HTTP: no key, another path, malformed JSON, a body over 8 MiB", async () => {
    model = await startScriptedModel(TURNS);
    expect(await post(ask("add 1 and 2"), {})).toEqual(
      refusal(401, "authentication_error", "no API key: send x-api-key or authorization: Bearer"),
    );
    expect(await post({}, undefined, `${model.url}/v1/complete`)).toEqual(
      refusal(404, "not_found_error", "no POST /v1/complete here: only POST /v1/messages"),
    );
    expect(await post("{not json")).toEqual(refusal(400, "invalid_request_error", "the body is not a JSON object"));
    expect(await post(`"${"x".repeat(8 * 1024 * 1024)}"`)).toEqual(
      refusal(413, "request_too_large", "the body is over 8388608 bytes"),
    );
    expect(model.failures).toHaveLength(4);
    expect((await post(ask("add 1 and 2"))).status).toBe(200); // it still serves the script
  });
});

describe("a request the Messages API would call invalid is a 400, not a 500", () => {
  test.each([
    [
      "a null content block",
      { ...ask("x"), messages: [{ role: "user", content: [null] }] },
      "messages.0.content: expected a string or an array of content block objects",
    ],
    [
      "a null message before the last",
      { ...ask("x"), messages: [null, ...ask("add 1 and 2").messages] },
      "messages: expected an array of message objects",
    ],
    ["a null tool", { ...ask("add 1 and 2"), tools: [null] }, "tools: expected an array of tool objects"],
    [
      "tools that are not an array",
      { ...ask("add 1 and 2"), tools: "mcp__calc__add" },
      "tools: expected an array of tool objects",
    ],
  ])("%s", async (_, body, message) => {
    model = await startScriptedModel(TURNS);
    expect(await post(body)).toEqual(refusal(400, "invalid_request_error", `turn 1: ${message}`));
    expect((await post(ask("add 1 and 2"))).status).toBe(200); // and it still serves the script
  });

  test("anything else that throws is a 500 without its text, one stderr line, and the next is served", async () => {
    const broken = {
      ...TURNS[0]!,
      expect: {
        get prompt(): string {
          throw new Error("boom\n    at a stack line");
        },
      },
    };
    model = await startScriptedModel([broken, ...TURNS]);
    const stderr = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await post(ask("add 1 and 2"))).toEqual(refusal(500, "api_error", "internal error"));
      expect(stderr.mock.calls).toEqual([["scripted model: Error: boom"]]);
    } finally {
      stderr.mockRestore();
    }
    expect(model.failures).toEqual(["scripted model: Error: boom"]);
  });
});

/** One request written by hand on a raw socket (fetch would not send a forged Host); resolves with the status line. */
async function rawRequest(head: string): Promise<string> {
  const socket = connect(Number(new URL(model.url).port), "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  await once(socket, "close");
  return Buffer.concat(chunks).toString("utf8").split("\r\n")[0]!;
}

describe("only this machine may call it: the Host and Origin rule", () => {
  const local = [
    "localhost",
    "LOCALHOST:3000",
    "127.0.0.1",
    "127.0.0.1:8080",
    "[::1]",
    "[::1]:8080",
    "localhost:65535",
  ];
  const foreign = [
    "evil.com@localhost",
    "localhost.",
    "localhost.evil.com",
    "",
    "127.0.0.2",
    "[::1",
    "[0:0:0:0:0:0:0:1]",
    "localhost:0",
    "localhost:99999",
    "local host",
  ];
  const origins = {
    "http://localhost:3000": 404,
    "HTTPS://127.0.0.1": 404,
    "http://[::1]:8080": 404,
    null: 403,
    "http://evil.com": 403,
    "http://localhost.evil.com": 403,
    "http://evil@localhost": 403,
    "ftp://localhost": 403,
    localhost: 403,
  };

  test("accepts the three local hosts with a port or none, refuses every other form, and keeps serving", async () => {
    model = await startScriptedModel(TURNS);
    for (const host of local)
      expect([host, await rawRequest(`GET /v1/messages HTTP/1.1\r\nHost: ${host}`)]).toEqual([
        host,
        "HTTP/1.1 404 Not Found",
      ]);
    for (const host of foreign)
      expect([host, await rawRequest(`GET /v1/messages HTTP/1.1\r\nHost: ${host}`)]).toEqual([
        host,
        "HTTP/1.1 403 Forbidden",
      ]);
    expect(await rawRequest("GET /v1/messages HTTP/1.1\r\nHost: localhost\r\nHost: evil.com")).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect(await rawRequest("GET /v1/messages HTTP/1.1")).toBe("HTTP/1.1 400 Bad Request");
    for (const [origin, status] of Object.entries(origins)) {
      const line = await rawRequest(`GET /v1/messages HTTP/1.1\r\nHost: localhost\r\nOrigin: ${origin}`);
      expect([origin, line]).toEqual([origin, `HTTP/1.1 ${status} ${status === 404 ? "Not Found" : "Forbidden"}`]);
    }
    expect((await post(ask("add 1 and 2"))).status).toBe(200);
  });

  test("answers request-targets that URL cannot parse, and keeps serving", async () => {
    model = await startScriptedModel(TURNS);
    for (const target of ["//%", "//[", "//:99999", "http://["]) {
      expect([target, await rawRequest(`GET ${target} HTTP/1.1\r\nHost: localhost`)]).toEqual([
        target,
        expect.stringMatching(/^HTTP\/1\.1 (400|404) /),
      ]);
    }
    expect((await post(ask("add 1 and 2"))).status).toBe(200);
  });
});

describe("a scenario file", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-scenario-test-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const load = (content: string) => {
    const file = path.join(folder, "s.json");
    writeFileSync(file, content);
    return () => loadScenario(file);
  };
  const where = () => `scenario ${path.join(folder, "s.json")}: `;

  test.each([
    ["{", /Expected property name|JSON/],
    ['{"turns":[]}', 'needs "turns", a non-empty array'],
    ['{"turns":[{"expect":{},"reply":[]}]}', 'turn 1: needs "expect" and a non-empty "reply"'],
    [
      '{"turns":[{"expect":{},"reply":[{"type":"image"}]}]}',
      'turn 1: each reply block is {"type":"text","text"} or {"type":"tool_use","name","input":{}}',
    ],
    [
      '{"turns":[{"expect":{"toolResults":[{"content":[]}]},"reply":[{"type":"text","text":"x"}]}]}',
      "turn 1: expect.toolResults must list 0 results, one per tool_use before it",
    ],
  ])("%s is refused before any request", (content, message) => {
    if (typeof message === "string") expect(load(content)).toThrow(`${where()}${message}`);
    else expect(load(content)).toThrow(message);
  });
});
