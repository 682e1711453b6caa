// Test helper: configuration entries for the fixture servers, as loadConfig would return them, and a tool result's
// text.
import { fileURLToPath } from "node:url";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config.ts";

export const fixture = (file: string) => fileURLToPath(new URL(`../fixtures/${file}`, import.meta.url));

export const stdio = (
  name: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): ServerConfig => ({
  name,
  scope: "project",
  file: ".mcp.json",
  entry: { type: "stdio", command, args, env },
  overrides: [],
});

/** tools.mjs as server `name`, offering `tools` besides setting, unlock, noise and crash. */
export const toolsServer = (name: string, tools: string[] = [], env: Record<string, string> = {}) =>
  stdio(name, process.execPath, [fixture("tools.mjs"), name, ...tools], env);

export const text = (result: CallToolResult) =>
  result.content.map((item) => (item.type === "text" ? item.text : item.type)).join(" ");
