// The agent loop end to end: the real Anthropic SDK client, the scripted model on 127.0.0.1, and real stdio servers.
// The 42 must come from the server; tool failures go back to the model as errors; servers start once, on demand.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { Agent, toToolResult, type AgentOptions } from "./agent.ts";
import { approver } from "./approval.ts";
import type { ServerConfig } from "./config.ts";
import { McpManager } from "./manager.ts";
import type { Route } from "./names.ts";
import { leftInGroups } from "./groups.ts";
import { roleProgram } from "./roles.ts";
import { loadScenario, type Turn } from "./scenario.ts";
import { startScriptedModel, type ScriptedModel } from "./scripted-model.ts";
import { stdio, toolsServer } from "./test/servers.ts";

const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-agent-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const demoScenario = fileURLToPath(new URL("./scenarios/add.json", import.meta.url));
const adderProgram = fileURLToPath(new URL("./test/adder.mjs", import.meta.url));
const adder = (name: string, bias = 0) =>
  stdio(name, process.execPath, [adderProgram], { FIXTURE_ADD_BIAS: String(bias) });

// Everything a test starts is stopped after it, and no server process may be left.
const running: { manager: McpManager; model: ScriptedModel }[] = [];
afterEach(async () => {
  for (const { manager, model } of running.splice(0)) {
    const groups = manager.processGroups();
    await Promise.all([manager.closeAll(), model.close()]);
    expect(await leftInGroups(groups)).toEqual([]);
  }
});

async function setUp(servers: ServerConfig[], turns: Turn[], options: Partial<AgentOptions> = {}) {
  const model = await startScriptedModel(turns);
  const serverLines: string[] = [];
  const manager = new McpManager(servers, { log: (line) => serverLines.push(line) });
  running.push({ manager, model });
  const client = new Anthropic({ apiKey: "test-key", baseURL: model.url, maxRetries: 0 });
  const calls: string[] = [];
  const agent = new Agent(client, manager, {
    model: "claude-sonnet-5-5",
    approve: approver(["*"]),
    onToolCall: ({ name, input }) => calls.push(`${name} ${JSON.stringify(input)}`),
    ...options,
  });
  return { agent, manager, model, calls, serverLines };
}

const text = (value: string) => ({ type: "text" as const, text: value });
const use = (name: string, input: Record<string, unknown>) => ({ type: "tool_use" as const, name, input });
const finalText = (message: Anthropic.Message) =>
  message.content.map((block) => (block.type === "text" ? block.text : "")).join("");

describe("the demo's scenario", () => {
  test("the tutorial's hand-written server answers 42, and the model's last words come after that result", async () => {
    const server = stdio("demo", process.execPath, [
      "--import",
      import.meta.resolve("tsx"),
      roleProgram("hand-written server"),
      folder,
    ]);
    const { agent, model, calls } = await setUp([server], loadScenario(demoScenario));
    const { message, rounds } = await agent.send("Use the add tool to compute 17 + 25.");
    expect(calls).toEqual(['mcp__demo__add {"a":17,"b":25}']);
    expect([finalText(message), message.stop_reason, rounds]).toEqual([
      "17 + 25 = 42, as the add tool computed.",
      "end_turn",
      2,
    ]);
    expect([model.failures, model.played()]).toEqual([[], "2 of 2 turns played"]);
  });

  test("a server whose add answers 43 fails it: the model refuses the request and the agent says why", async () => {
    const { agent, model } = await setUp([adder("demo", 1)], loadScenario(demoScenario));
    const failure =
      'turn 2: expected the tool results [{"tool_use_id":"toolu_scripted_1_1","content":[{"type":"text","text":"42"}],"is_error":false}], got [{"tool_use_id":"toolu_scripted_1_1","content":[{"type":"text","text":"43"}],"is_error":false}]';
    const refusal = { type: "error", error: { type: "invalid_request_error", message: `scripted model: ${failure}` } };
    await expect(agent.send("Use the add tool to compute 17 + 25.")).rejects.toMatchObject({
      status: 400,
      error: refusal,
    });
    expect([model.failures, model.played()]).toEqual([[`scripted model: ${failure}`], "1 of 2 turns played"]);
  });
});

describe("the loop", () => {
  test("servers start on the first message, not before, and only once for a whole conversation", async () => {
    const turns: Turn[] = [
      { expect: { prompt: "first", tools: ["mcp__calc__add"] }, reply: [text("one")] },
      { expect: { prompt: "second", tools: ["mcp__calc__add"] }, reply: [text("two")] },
    ];
    const { agent, manager } = await setUp([adder("calc")], turns);
    expect(manager.processGroups()).toEqual([]);
    expect(manager.status()[0]?.state).toBe("connecting");
    expect(finalText((await agent.send("first")).message)).toBe("one");
    const groups = manager.processGroups();
    expect(groups).toHaveLength(1);
    expect(finalText((await agent.send("second")).message)).toBe("two");
    expect(manager.processGroups()).toEqual(groups);
  });

  test("every tool_use of one answer runs in order, and each failure goes back as an is_error result", async () => {
    const turns: Turn[] = [
      {
        expect: { prompt: "go" },
        reply: [
          use("mcp__calc__add", { a: 1, b: 2 }),
          use("mcp__calc__add", { a: 1 }),
          use("mcp__none__tool", {}),
          use("mcp__broken__add", { a: 1, b: 1 }),
        ],
      },
      {
        expect: {
          toolResults: [
            { content: [text("3")] },
            { content: [text("a and b must be numbers")], is_error: true },
            { content: [text('unknown tool "mcp__none__tool": no server offers it (failed: broken)')], is_error: true },
            {
              content: [text('unknown tool "mcp__broken__add": no server offers it (failed: broken)')],
              is_error: true,
            },
          ],
        },
        reply: [text("done")],
      },
    ];
    const broken = stdio("broken", process.execPath, ["-e", "process.exit(4)"]);
    const { agent, model, calls } = await setUp([adder("calc"), broken], turns);
    expect(finalText((await agent.send("go")).message)).toBe("done");
    expect(calls).toEqual([
      'mcp__calc__add {"a":1,"b":2}',
      'mcp__calc__add {"a":1}',
      "mcp__none__tool {}",
      'mcp__broken__add {"a":1,"b":1}',
    ]);
    expect(model.failures).toEqual([]);
  });

  test("a server that crashes: the model is told it stopped; its stderr stays on the terminal", async () => {
    const turns: Turn[] = [
      { expect: { prompt: "crash" }, reply: [use("mcp__crashy__crash", {})] },
      {
        expect: {
          toolResults: [
            { content: [text('the server "crashy" stopped; its output is on the user\'s terminal')], is_error: true },
          ],
        },
        reply: [text("it stopped")],
      },
    ];
    const errors: string[] = [];
    const { agent, model } = await setUp([toolsServer("crashy")], turns, {
      onToolResult: ({ content }) => errors.push(JSON.stringify(content)),
    });
    expect(finalText((await agent.send("crash")).message)).toBe("it stopped");
    expect(model.failures).toEqual([]);
    expect(errors.join("")).not.toContain("crashing on purpose");
  });

  test("a model that keeps asking for tools is stopped after --max-turns requests", async () => {
    const ask = (n: number): Turn => ({
      expect: n === 1 ? { prompt: "loop" } : { toolResults: [{ content: [text("2")] }] },
      reply: [use("mcp__calc__add", { a: 1, b: 1 })],
    });
    const turns = [
      ask(1),
      ask(2),
      ask(3),
      { expect: { toolResults: [{ content: [text("2")] }] }, reply: [text("never reached")] },
    ];
    const { agent, model } = await setUp([adder("calc")], turns, { maxTurns: 3 });
    await expect(agent.send("loop")).rejects.toThrow(
      "the model still asked for tools after 3 requests (--max-turns 3)",
    );
    expect(model.played()).toBe("3 of 4 turns played");
  });

  test("the model's text arrives in pieces as it streams", async () => {
    const pieces: string[] = [];
    const { agent } = await setUp([], [{ expect: { prompt: "hi" }, reply: [text("one two three four five")] }], {
      onText: (delta) => pieces.push(delta),
    });
    await agent.send("hi");
    expect(pieces).toEqual(["one two three ", "four five"]);
  });
});

describe("approval", () => {
  test("a call the user does not approve never reaches the server; the model gets the refusal", async () => {
    const refusal =
      "the call was not approved: mcp__calc__add is not in the allow list (--allow), and there is no terminal to ask";
    const turns: Turn[] = [
      {
        expect: { prompt: "add twice" },
        reply: [use("mcp__calc__add", { a: 1, b: 2 }), use("mcp__calc__add", { a: 3, b: 4 })],
      },
      {
        expect: { toolResults: [{ content: [text(refusal)], is_error: true }, { content: [text("7")] }] },
        reply: [text("only one ran")],
      },
    ];
    const questions: string[] = [];
    const verdicts: string[] = [];
    // The first call is refused by an empty allow list without a terminal; the second is asked and approved.
    let asked = 0;
    const approve = (route: Route, input: unknown) =>
      asked++ === 0
        ? approver([])(route, input)
        : approver([], async (question) => (questions.push(question), "y"))(route, input);
    const { agent, model, serverLines } = await setUp([adder("calc")], turns, {
      approve,
      onVerdict: ({ allowed, why }) => verdicts.push(`${allowed} ${why}`),
    });
    expect(finalText((await agent.send("add twice")).message)).toBe("only one ran");
    expect(model.failures).toEqual([]);
    expect(verdicts).toEqual([
      `false ${refusal.replace("the call was not approved: ", "")}`,
      "true approved by the user",
    ]);
    expect(questions).toEqual(['allow mcp__calc__add {"a":3,"b":4}? [y/N] ']);
    expect(serverLines.filter((line) => line.includes("called"))).toEqual(['[calc] called add {"a":3,"b":4}']);
  });

  test("--allow 'mcp__demo__*' allows server demo's tools, not demo::evil's mcp__demo__evil__add", async () => {
    const refusal =
      "the call was not approved: mcp__demo__evil__add is not in the allow list (--allow), and there is no terminal to ask";
    const turns: Turn[] = [
      {
        expect: { prompt: "add", tools: ["mcp__demo__add", "mcp__demo__evil__add"] },
        reply: [use("mcp__demo__evil__add", { a: 1, b: 2 }), use("mcp__demo__add", { a: 3, b: 4 })],
      },
      {
        expect: { toolResults: [{ content: [text(refusal)], is_error: true }, { content: [text("7")] }] },
        reply: [text("one ran")],
      },
    ];
    const { agent, model, serverLines } = await setUp([adder("demo"), adder("demo::evil")], turns, {
      approve: approver(["mcp__demo__*"]),
    });
    expect(finalText((await agent.send("add")).message)).toBe("one ran");
    expect(model.failures).toEqual([]);
    expect(serverLines.filter((line) => line.includes("called"))).toEqual(['[demo] called add {"a":3,"b":4}']);
  });
});

test("MCP content becomes tool_result content: text and images as they are, anything else described", () => {
  const png = Buffer.from("not really a png").toString("base64");
  const result = toToolResult("toolu_1", {
    isError: true,
    content: [
      { type: "text", text: "hello" },
      { type: "image", mimeType: "image/png", data: png },
      { type: "image", mimeType: "image/svg+xml", data: png },
      { type: "audio", mimeType: "audio/wav", data: png },
      { type: "resource_link", uri: "file:///notes.txt", name: "notes" },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "secret plans" } },
    ],
  });
  expect(result).toEqual({
    type: "tool_result",
    tool_use_id: "toolu_1",
    is_error: true,
    content: [
      text("hello"),
      { type: "image", source: { type: "base64", media_type: "image/png", data: png } },
      text("[image image/svg+xml, 16 bytes, not shown]"),
      text("[audio audio/wav, 16 bytes, not shown]"),
      text("[link to resource file:///notes.txt]"),
      text("[resource file:///a.txt, text/plain, not shown]"),
    ],
  });
  expect(toToolResult("toolu_2", { content: [] })).toEqual({
    type: "tool_result",
    tool_use_id: "toolu_2",
    content: [],
  });
});

test("a scenario file is checked before the first request", () => {
  const file = path.join(folder, "bad.json");
  writeFileSync(file, JSON.stringify({ turns: [{ expect: {}, reply: [use("mcp__calc__add", { a: 1, b: 1 })] }] }));
  expect(() => loadScenario(file)).toThrow(
    `scenario ${file}: the last turn asks for tools, so the script would end before their results come back`,
  );
});
