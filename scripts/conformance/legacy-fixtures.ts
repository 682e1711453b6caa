// The fixtures only the 2025 era has: tools that log, sample or elicit by sending the client a request mid-call, and
// resource subscriptions. The 2026-07-28 revision removed all of these (input_required results replace the requests).
import type { CallToolResult, ElicitRequestFormParams, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { setTimeout as sleep } from "node:timers/promises";
import * as z from "zod";

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const noArguments = z.object({});
type Schema = ElicitRequestFormParams["requestedSchema"];

// SEP-1034: a default for every primitive type.
const DEFAULTS_SCHEMA: Schema = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
};

// SEP-1330: the five ways to write a choice, single and multiple, titled and not (and the deprecated enumNames).
const titled = (prefix: string, titles: string[]) =>
  titles.map((title, index) => ({ const: `${prefix}${index + 1}`, title }));
const ENUMS_SCHEMA = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: { type: "string", oneOf: titled("value", ["First Option", "Second Option", "Third Option"]) },
    legacyEnum: {
      type: "string",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: { anyOf: titled("value", ["First Choice", "Second Choice", "Third Choice"]) },
    },
  },
} as Schema;

async function elicitAndReport(ctx: ServerContext, message: string, requestedSchema: Schema): Promise<CallToolResult> {
  const { action, content } = await ctx.mcpReq.elicitInput({ mode: "form", message, requestedSchema });
  return text(`Elicitation completed: action=${action}, content=${JSON.stringify(content ?? {})}`);
}

//#region tools
export function registerLegacyTools(server: McpServer): void {
  server.registerTool(
    "test_tool_with_logging",
    { description: "Logs three messages at info level.", inputSchema: noArguments },
    async (_args, ctx) => {
      await ctx.mcpReq.log("info", "Tool execution started");
      await sleep(50);
      await ctx.mcpReq.log("info", "Tool processing data");
      await sleep(50);
      await ctx.mcpReq.log("info", "Tool execution completed");
      return text("Logging test completed.");
    },
  );
  server.registerTool(
    "test_sampling",
    { description: "Asks the client's model to answer a prompt.", inputSchema: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const messages = [{ role: "user" as const, content: { type: "text" as const, text: prompt } }];
      const { content } = await ctx.mcpReq.requestSampling({ messages, maxTokens: 100 });
      const answer = Array.isArray(content) ? content : [content];
      return text(
        `LLM response: ${answer.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("")}`,
      );
    },
  );
  server.registerTool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an email address.",
      inputSchema: z.object({ message: z.string() }),
    },
    async ({ message }, ctx) => {
      const requestedSchema: Schema = {
        type: "object",
        properties: {
          username: { type: "string", description: "User's response" },
          email: { type: "string", description: "User's email address" },
        },
        required: ["username", "email"],
      };
      const { action, content } = await ctx.mcpReq.elicitInput({ mode: "form", message, requestedSchema });
      return text(`User response: action=${action}, content=${JSON.stringify(content ?? {})}`);
    },
  );
  server.registerTool(
    "test_elicitation_sep1034_defaults",
    { description: "Elicits with defaults.", inputSchema: noArguments },
    (_args, ctx) => elicitAndReport(ctx, "Please review your details (defaults filled in)", DEFAULTS_SCHEMA),
  );
  server.registerTool(
    "test_elicitation_sep1330_enums",
    { description: "Elicits every kind of choice.", inputSchema: noArguments },
    (_args, ctx) => elicitAndReport(ctx, "Please pick your options", ENUMS_SCHEMA),
  );
}
//#endregion

//#region subscriptions
/**
 * resources/subscribe and unsubscribe, per session as the McpServer itself is. A simplification: no resource here ever
 * changes, so notifications/resources/updated is never due and the set of subscribed URIs is only kept.
 */
export function registerSubscriptions(server: McpServer): void {
  const subscribed = new Set<string>();
  server.server.registerCapabilities({ resources: { subscribe: true } });
  server.server.setRequestHandler("resources/subscribe", ({ params }) => {
    subscribed.add(params.uri);
    return {};
  });
  server.server.setRequestHandler("resources/unsubscribe", ({ params }) => {
    subscribed.delete(params.uri);
    return {};
  });
}
//#endregion
