// A scenario for the scripted model: turns, each with what the request before it must carry and the answer it gives.
// Checked when read, so that a broken script fails before the first request; matched strictly, request by request.
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { isObject } from "./config.ts";

//#region scenario
/** What the request before a turn must carry, and the answer the turn gives. */
export interface Turn {
  expect: {
    prompt?: string; // the text of the last user message, exactly
    tools?: string[]; // tool names that must be offered (others may be too)
    // one per tool_use of the previous turn, in order, exactly
    toolResults?: { content: unknown[]; is_error?: boolean }[];
  };
  reply: ({ type: "text"; text: string } | { type: "tool_use"; name: string; input: Record<string, unknown> })[];
}

/** Reads a scenario file ({ "turns": [...] }) and checks it, so that a broken script fails before the first request. */
export function loadScenario(file: string): Turn[] {
  const fail = (why: string): never => {
    throw new Error(`scenario ${file}: ${why}`);
  };
  let scenario: unknown;
  try {
    scenario = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    fail((error as Error).message);
  }
  if (!isObject(scenario) || !Array.isArray(scenario.turns) || scenario.turns.length === 0)
    fail('needs "turns", a non-empty array');
  const turns = (scenario as { turns: Turn[] }).turns;
  let toolUses = 0; // tool_use blocks in the previous turn's reply: this turn must expect as many results
  turns.forEach((turn, i) => {
    const where = `turn ${i + 1}`;
    if (!isObject(turn) || !isObject(turn.expect) || !Array.isArray(turn.reply) || turn.reply.length === 0)
      fail(`${where}: needs "expect" and a non-empty "reply"`);
    for (const block of turn.reply) {
      const good =
        isObject(block) &&
        (block.type === "text"
          ? typeof block.text === "string"
          : block.type === "tool_use" && typeof block.name === "string" && isObject(block.input));
      if (!good) fail(`${where}: each reply block is {"type":"text","text"} or {"type":"tool_use","name","input":{}}`);
    }
    if ((turn.expect.toolResults?.length ?? 0) !== toolUses)
      fail(`${where}: expect.toolResults must list ${toolUses} results, one per tool_use before it`);
    toolUses = turn.reply.filter((block) => block.type === "tool_use").length;
  });
  if (toolUses > 0) fail("the last turn asks for tools, so the script would end before their results come back");
  return turns;
}
//#endregion

//#region match
/** A JSON object of a request or an answer: a message, a content block, a tool. */
export type Block = Record<string, unknown>;

const isObjects = (value: unknown): value is Block[] => Array.isArray(value) && value.every(isObject);

/** Where `body` is not the shape the Messages API takes (a `null` message, block or tool), as the API refuses it. */
function invalidShape(body: Record<string, unknown>): string | undefined {
  if (!isObjects(body.messages)) return "messages: expected an array of message objects";
  const content = body.messages.findIndex(
    (message) => typeof message.content !== "string" && !isObjects(message.content),
  );
  if (content !== -1) return `messages.${content}.content: expected a string or an array of content block objects`;
  if (body.tools !== undefined && !isObjects(body.tools)) return "tools: expected an array of tool objects";
  return undefined;
}

/** Why `body` is not the request turn `turn` expects, or undefined when it is. `ids` are the tool_use ids just sent. */
export function mismatch(turn: Turn, body: Record<string, unknown>, ids: string[]): string | undefined {
  if (body.stream !== true) return "the request is not streaming: the scripted model answers only stream: true";
  const invalid = invalidShape(body);
  if (invalid !== undefined) return invalid;
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1) as { role?: string; content?: unknown } | undefined;
  if (last?.role !== "user") return "the last message is not the user's";
  const blocks: Block[] =
    typeof last.content === "string"
      ? [{ type: "text", text: last.content }]
      : Array.isArray(last.content)
        ? last.content
        : [];
  const { prompt, tools = [], toolResults = [] } = turn.expect;
  const text = blocks
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
  if (prompt !== undefined && text !== prompt)
    return `expected the prompt ${JSON.stringify(prompt)}, got ${JSON.stringify(text)}`;
  const offered = (Array.isArray(body.tools) ? body.tools : []).map((tool: Block) => tool.name);
  const missing = tools.filter((name) => !offered.includes(name));
  if (missing.length > 0)
    return `expected the tools ${missing.join(", ")} to be offered; offered: ${offered.join(", ") || "none"}`;
  const results = blocks.filter((block) => block.type === "tool_result");
  const got = results.map(({ tool_use_id, content, is_error = false }) => ({ tool_use_id, content, is_error }));
  const wanted = toolResults.map(({ content, is_error = false }, i) => ({ tool_use_id: ids[i], content, is_error }));
  if (!isDeepStrictEqual(got, wanted))
    return `expected the tool results ${JSON.stringify(wanted)}, got ${JSON.stringify(got)}`;
  return undefined;
}
//#endregion
