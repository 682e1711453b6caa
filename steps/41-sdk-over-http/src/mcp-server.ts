// The MCP server the HTTP steps serve: add, and count_slowly, which reports progress and logs. Over HTTP
// the SDK asks for a factory, not a server: it may build one McpServer per request, so nothing lives in between.
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { registerCountSlowly } from "./count-slowly.ts";

export function createMcpServer(): McpServer {
  // The logging capability makes ctx.mcpReq.log send notifications/message; without it, log() sends nothing.
  const server = new McpServer({ name: "learn-mcp-http", version: "0.1.0" }, { capabilities: { logging: {} } });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers and returns the sum.",
      inputSchema: z.strictObject({ a: z.number(), b: z.number() }),
    },
    ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  registerCountSlowly(server);
  return server;
}
