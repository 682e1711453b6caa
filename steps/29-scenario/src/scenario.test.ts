// A scenario is checked when it is read, and each request is matched strictly against its turn: every difference is
// named, and a request the Messages API would call invalid is refused before it is matched.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { loadScenario, mismatch, type Turn } from "./scenario.ts";

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
const ask = (prompt: unknown, tools: unknown = OFFERED) => ({
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
const IDS = ["toolu_1"];

describe("a request its turn expects", () => {
  test("matches: the prompt as a string or as text blocks, and the results that answer the ids just sent", () => {
    expect(mismatch(TURNS[0]!, ask("add 1 and 2"), [])).toBeUndefined();
    const blocks = [
      { type: "text", text: "add 1 " },
      { type: "text", text: "and 2" },
    ];
    expect(mismatch(TURNS[0]!, ask(blocks), [])).toBeUndefined();
    expect(mismatch(TURNS[1]!, answerWith([result("toolu_1", "3")]), IDS)).toBeUndefined();
    expect(mismatch(TURNS[1]!, answerWith([result("toolu_1", "3", { is_error: false })]), IDS)).toBeUndefined();
  });
});

describe("a request it does not expect is named for what differs", () => {
  test.each([
    ["another prompt", ask("add 2 and 2"), 'expected the prompt "add 1 and 2", got "add 2 and 2"'],
    [
      "a tool missing",
      ask("add 1 and 2", OFFERED.slice(1)),
      "expected the tools mcp__calc__add to be offered; offered: mcp__calc__echo",
    ],
    [
      "no tools at all",
      { ...ask("add 1 and 2"), tools: undefined },
      "expected the tools mcp__calc__add to be offered; offered: none",
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
  ])("%s", (_, body, message) => {
    expect(mismatch(TURNS[0]!, body, [])).toBe(message);
  });

  test.each([
    [
      "a different result",
      [result("toolu_1", "4")],
      '[{"tool_use_id":"toolu_1","content":[{"type":"text","text":"4"}],"is_error":false}]',
    ],
    [
      "the right text flagged as an error",
      [result("toolu_1", "3", { is_error: true })],
      '[{"tool_use_id":"toolu_1","content":[{"type":"text","text":"3"}],"is_error":true}]',
    ],
    [
      "an id it never gave",
      [result("toolu_other", "3")],
      '[{"tool_use_id":"toolu_other","content":[{"type":"text","text":"3"}],"is_error":false}]',
    ],
    ["no result at all", [{ type: "text", text: "3" }], "[]"],
  ])("tool results: %s", (_, results, got) => {
    const wanted = '[{"tool_use_id":"toolu_1","content":[{"type":"text","text":"3"}],"is_error":false}]';
    expect(mismatch(TURNS[1]!, answerWith(results), IDS)).toBe(`expected the tool results ${wanted}, got ${got}`);
  });
});

describe("a request the Messages API would call invalid is refused before it is matched", () => {
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
    ["no messages", { ...ask("add 1 and 2"), messages: undefined }, "messages: expected an array of message objects"],
    ["a null tool", ask("add 1 and 2", [null]), "tools: expected an array of tool objects"],
    ["tools that are not an array", ask("add 1 and 2", "mcp__calc__add"), "tools: expected an array of tool objects"],
  ])("%s", (_, body, message) => {
    expect(mismatch(TURNS[0]!, body, [])).toBe(message);
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

  test("the demo's own is read as written", () => {
    const turns = loadScenario(fileURLToPath(new URL("./scenarios/add.json", import.meta.url)));
    expect(turns.map((turn) => turn.reply.map((block) => block.type))).toEqual([["text", "tool_use"], ["text"]]);
    expect(turns[1]!.expect.toolResults).toEqual([{ content: [{ type: "text", text: "42" }] }]);
  });

  test.each([
    ["{", /Expected property name|JSON/],
    ['{"turns":[]}', 'needs "turns", a non-empty array'],
    ['{"turns":[{"expect":{},"reply":[]}]}', 'turn 1: needs "expect" and a non-empty "reply"'],
    [
      '{"turns":[{"expect":{},"reply":[{"type":"image"}]}]}',
      'turn 1: each reply block is {"type":"text","text"} or {"type":"tool_use","name","input":{}}',
    ],
    [
      '{"turns":[{"expect":{},"reply":[{"type":"tool_use","name":"t","input":[]}]}]}',
      'turn 1: each reply block is {"type":"text","text"} or {"type":"tool_use","name","input":{}}',
    ],
    [
      '{"turns":[{"expect":{"toolResults":[{"content":[]}]},"reply":[{"type":"text","text":"x"}]}]}',
      "turn 1: expect.toolResults must list 0 results, one per tool_use before it",
    ],
    [
      '{"turns":[{"expect":{},"reply":[{"type":"tool_use","name":"t","input":{}}]},{"expect":{},"reply":[{"type":"text","text":"x"}]}]}',
      "turn 2: expect.toolResults must list 1 results, one per tool_use before it",
    ],
    [
      '{"turns":[{"expect":{},"reply":[{"type":"tool_use","name":"t","input":{}}]}]}',
      "the last turn asks for tools, so the script would end before their results come back",
    ],
  ])("%s is refused before any request", (content, message) => {
    if (typeof message === "string") expect(load(content)).toThrow(`${where()}${message}`);
    else expect(load(content)).toThrow(message);
  });
});
