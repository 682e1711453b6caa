// The loop a host runs between a model and its MCP servers: stream the conversation and the tools to the model; when
// it answers with tool_use blocks, the host (not the model) calls each tool through the manager and sends the results
// back; repeat until the model ends its turn.
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Message,
  MessageParam,
  Tool as ModelTool,
  ToolResultBlockParam,
  ToolUseBlock,
} from "@anthropic-ai/sdk/resources/messages";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Approve, Verdict } from "./approval.ts";
import { CallError, type McpManager } from "./manager.ts";

export const DEFAULT_MAX_TURNS = 20;
// The API requires a cap on each answer's length, in tokens; a tool's input counts too, so leave room for a long one.
export const DEFAULT_MAX_TOKENS = 4096;

export interface AgentOptions {
  model: string;
  maxTurns?: number; // model requests per user message (rounds)
  maxTokens?: number;
  approve: Approve; // asked before every call: the host runs nothing the user did not allow
  onText?: (delta: string) => void; // the model's words as they stream in
  onToolCall?: (call: ToolUseBlock) => void;
  onVerdict?: (verdict: Verdict) => void;
  onToolResult?: (result: ToolResultBlockParam) => void;
}

//#region results
// The image types the Messages API takes; any other MCP image goes back as a description.
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
type ImageType = (typeof IMAGE_TYPES)[number];
type Content = CallToolResult["content"][number];
type ResultBlock = Exclude<ToolResultBlockParam["content"], string | undefined>[number];

const decodedBytes = (base64: string) => Math.floor((base64.replace(/=+$/, "").length * 3) / 4);

/**
 * One MCP content item as a block the model reads: text and images as they are, anything else as a short description.
 */
function toBlock(item: Content): ResultBlock {
  if (item.type === "text") return { type: "text", text: item.text };
  if (item.type === "image" && IMAGE_TYPES.includes(item.mimeType as ImageType)) {
    return { type: "image", source: { type: "base64", media_type: item.mimeType as ImageType, data: item.data } };
  }
  if (item.type === "image" || item.type === "audio")
    return { type: "text", text: `[${item.type} ${item.mimeType}, ${decodedBytes(item.data)} bytes, not shown]` };
  if (item.type === "resource_link") return { type: "text", text: `[link to resource ${item.uri}]` };
  return {
    type: "text",
    text: `[resource ${item.resource.uri}, ${item.resource.mimeType ?? "of unknown type"}, not shown]`,
  };
}

/** An MCP tool result as the tool_result block that answers tool_use `id`. */
export function toToolResult(id: string, result: CallToolResult): ToolResultBlockParam {
  return {
    type: "tool_result",
    tool_use_id: id,
    content: result.content.map(toBlock),
    ...(result.isError ? { is_error: true } : {}),
  };
}
//#endregion

export class Agent {
  #messages: MessageParam[] = [];
  #connected?: Promise<void>;
  #maxTurns: number;

  /** An agent that asks `model` and calls the tools `manager` offers. */
  constructor(
    readonly model: Anthropic,
    readonly manager: McpManager,
    readonly options: AgentOptions,
  ) {
    this.#maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  }

  //#region loop
  /** Answers one user message to the end; resolves with the model's last message and the rounds it took. */
  async send(prompt: string): Promise<{ message: Message; rounds: number }> {
    this.#connected ??= this.manager.connectAll(); // the servers start on the first message, and only then
    await this.#connected;
    this.#messages.push({ role: "user", content: prompt });
    for (let round = 1; round <= this.#maxTurns; round++) {
      const stream = this.model.messages.stream({
        model: this.options.model,
        max_tokens: this.options.maxTokens ?? DEFAULT_MAX_TOKENS,
        messages: this.#messages,
        tools: this.#tools(),
      });
      if (this.options.onText) stream.on("text", this.options.onText);
      const message = await stream.finalMessage();
      if (message.stop_reason !== "tool_use") {
        // Done. An answer cut short (max_tokens) may end in a tool_use that will never get its result: keep the
        // text only, or the next request would be refused for the unanswered call.
        const said = message.content.filter((block) => block.type !== "tool_use");
        if (said.length > 0) this.#messages.push({ role: "assistant", content: said });
        return { message, rounds: round };
      }
      this.#messages.push({ role: "assistant", content: message.content });
      const results: ToolResultBlockParam[] = [];
      for (const block of message.content) if (block.type === "tool_use") results.push(await this.#call(block));
      this.#messages.push({ role: "user", content: results });
    }
    throw new Error(`the model still asked for tools after ${this.#maxTurns} requests (--max-turns ${this.#maxTurns})`);
  }
  //#endregion

  //#region tools
  // Asked again each round: a server's list may change between two requests (tools/list_changed).
  #tools(): ModelTool[] {
    return this.manager.tools().map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      input_schema: tool.inputSchema as ModelTool["input_schema"],
    }));
  }

  /** Runs one tool_use block if the user approves it; a refusal, and whatever goes wrong, goes back to the model as an
   * error result, never as a throw. */
  async #call(block: ToolUseBlock): Promise<ToolResultBlockParam> {
    this.options.onToolCall?.(block);
    let result: ToolResultBlockParam;
    try {
      const input = block.input;
      if (input === null || typeof input !== "object" || Array.isArray(input))
        throw new Error("the tool input is not a JSON object");
      // Approval is for the server and tool the name reaches, which a name keeps while the host runs.
      const verdict = await this.options.approve(this.manager.route(block.name), input);
      this.options.onVerdict?.(verdict);
      if (!verdict.allowed) throw new Error(`the call was not approved: ${verdict.why}`);
      result = toToolResult(block.id, await this.manager.callTool(block.name, input as Record<string, unknown>));
    } catch (error) {
      // A failed call's message may quote the server's stderr, which stays on the user's terminal: not for the model.
      const text = error instanceof CallError ? error.forModel : (error as Error).message;
      result = { type: "tool_result", tool_use_id: block.id, content: [{ type: "text", text }], is_error: true };
    }
    this.options.onToolResult?.(result);
    return result;
  }
  //#endregion
}
