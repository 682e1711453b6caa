// MCP tools: answer tools/list with each tool's inputSchema, and tools/call with a CallToolResult.
// A call the server cannot route is a JSON-RPC error; a tool that runs and fails is a result with isError.
import { checkParams, invalidParams, isObject } from "./jsonrpc.ts";
import { validate, type JsonSchema } from "./schema.ts";

//#region types
export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema & { type: "object" };
  run(args: Record<string, unknown>): string | Promise<string>;
}
export interface CallToolResult {
  content: { type: "text"; text: string }[];
  isError?: true;
}

/** Thrown by a tool to fail with a message the caller may read; anything else is logged and hidden. */
export class ToolError extends Error {}
//#endregion

//#region list
export function handleToolsList(tools: Tool[]): { tools: Omit<Tool, "run">[] } {
  return { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
}
//#endregion

//#region call
export async function handleToolsCall(tools: Tool[], params: unknown): Promise<CallToolResult> {
  // Routing problems are the client's bug, not the model's: JSON-RPC errors, as for any method.
  const usage = "tools/call takes {name: string, arguments?: object}";
  const { name, arguments: args = {} } = checkParams(params, ["name", "arguments", "_meta"], usage);
  if (typeof name !== "string" || !isObject(args)) throw invalidParams(usage);
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw invalidParams(`unknown tool ${name}`);
  // Arguments that break the schema come back as a result (SEP-1303), so the model can read why and retry.
  const problem = validate(tool.inputSchema, args);
  if (problem !== undefined) return failed(`Invalid arguments for ${tool.name}: ${problem}`);
  try {
    return { content: [{ type: "text", text: await tool.run(args) }] };
  } catch (error) {
    if (error instanceof ToolError) return failed(error.message);
    console.error(`[server] tool ${tool.name} failed: ${error}`);
    return failed(`${tool.name} failed with an internal error`);
  }
}

function failed(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
//#endregion
