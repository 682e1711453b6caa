// The MCP server the HTTP steps serve: add, count_slowly, greet, which needs an answer from the user, and
// a message board shared by every process that serves it. Over HTTP the SDK asks for a factory, not a server: it may
// build one McpServer per request, so nothing lives in between.
import {
  inputRequired,
  inputResponse,
  McpServer,
  type CallToolResult,
  type InputRequiredResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { registerBoard, type Board } from "./board.ts";
import { registerCountSlowly } from "./count-slowly.ts";

/** A tool result of one text item. */
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

//#region greet
// Written once for both eras. The first time through there is no answer yet, so the handler returns input_required;
// the client asks the user and sends the call again with the answer, and this time the handler finds it. On a
// 2025-era session the SDK plays the client's part itself: it sends elicitation/create and runs the handler again.
const askName = z.object({ name: z.string().min(1).max(100).describe("Your name") });

function greet(ctx: ServerContext): CallToolResult | InputRequiredResult {
  const answer = inputResponse(ctx.mcpReq.inputResponses, "name");
  if (answer.kind === "missing") {
    return inputRequired({
      inputRequests: { name: inputRequired.elicit({ message: "What is your name?", requestedSchema: askName }) },
    });
  }
  if (answer.kind !== "elicit" || answer.action !== "accept") return text("No name, no greeting.");
  const parsed = askName.safeParse(answer.content); // it comes from the client: check it as any input
  return parsed.success
    ? text(`Hello, ${parsed.data.name}!`)
    : { ...text("That is not a name I can use."), isError: true };
}
//#endregion

/**
 * `listen`: whether clients may listen for the board's changes, which this server offers in the 2026-07-28 era only.
 */
export function createMcpServer(board: Board, listen: boolean): McpServer {
  // The logging capability makes ctx.mcpReq.log send notifications/message; without it, log() sends nothing.
  const capabilities = { logging: {}, ...(listen ? { resources: { subscribe: true } } : {}) };
  const server = new McpServer({ name: "learn-mcp-http", version: "0.1.0" }, { capabilities });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers and returns the sum.",
      inputSchema: z.strictObject({ a: z.number(), b: z.number() }),
    },
    ({ a, b }) => text(String(a + b)),
  );
  registerCountSlowly(server);
  server.registerTool(
    "greet",
    { description: "Greets the user by name, asking for it first.", inputSchema: z.strictObject({}) },
    (_args, ctx) => greet(ctx),
  );
  registerBoard(server, board);
  return server;
}
