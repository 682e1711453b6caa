// Demo: the scripted stand-in on 127.0.0.1 plays the scenario to the real Anthropic SDK client, streamed. The host's
// side is written out by hand: the manager's tools, the one tool call the model asks for, and its result sent back.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Message, MessageParam, TextBlockParam, Tool } from "@anthropic-ai/sdk/resources/messages";
import { loadConfig } from "./config.ts";
import { printable } from "./printable.ts";
import { leftInGroups } from "./groups.ts";
import { roleProgram } from "./roles.ts";
import { loadScenario } from "./scenario.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { exitOnSignals } from "./signals.ts";

// Removed on every exit a process can see: the end, an error, and a signal (exitOnSignals stops the servers first).
const beforeExit = exitOnSignals();
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-scripted-model-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const [project, sandbox] = [path.join(root, "project"), path.join(root, "sandbox")];
mkdirSync(project);
mkdirSync(sandbox);
const server = roleProgram("hand-written server");
writeFileSync(
  path.join(project, ".mcp.json"),
  JSON.stringify({
    mcpServers: {
      demo: { command: process.execPath, args: ["--import", import.meta.resolve("tsx"), server, sandbox] },
    },
  }),
);

//#region demo
const scenario = fileURLToPath(new URL("./scenarios/add.json", import.meta.url));
const model = await startScriptedModel(loadScenario(scenario));
beforeExit.push(() => model.close());
let speaking = false; // inside a line of the model's streamed text
// What the model and the servers say reaches a terminal: printable() removes escape sequences and control characters.
const say = (line: string) => {
  console.log(`${speaking ? "\n" : ""}${printable(line)}`);
  speaking = false;
};
say(`model: the scripted stand-in at ${model.url}, playing ${path.basename(scenario)}`);

// The SDKs load after the first line: loading them takes most of a second on a busy machine.
const { default: Anthropic } = await import("@anthropic-ai/sdk");
const { McpManager } = await import("./manager.ts");
// The SDK needs a key to send; the stand-in only checks that one is there.
const client = new Anthropic({ apiKey: "the-scripted-model-takes-any-key", baseURL: model.url, maxRetries: 0 });
const manager = new McpManager(loadConfig({ project }).servers);
beforeExit.push(() => manager.closeAll());

/** One streamed request with the whole conversation so far; the model's words print as they arrive. */
async function ask(messages: MessageParam[], tools: Tool[]): Promise<Message> {
  const stream = client.messages.stream({ model: "claude-sonnet-5-5", max_tokens: 4096, messages, tools });
  stream.on("text", (delta) => {
    process.stdout.write(speaking ? printable(delta) : `model: ${printable(delta)}`);
    speaking = true;
  });
  const message = await stream.finalMessage();
  say(`(stop_reason "${message.stop_reason}")`);
  return message;
}

const prompt = "Use the add tool to compute 17 + 25.";
say(`user:  ${prompt}`);
try {
  await manager.connectAll();
  const tools = manager.tools().map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    input_schema: tool.inputSchema as Tool["input_schema"],
  }));
  const messages: MessageParam[] = [{ role: "user", content: prompt }];
  const first = await ask(messages, tools);
  // The one tool_use this script asks for, run by hand: the answer goes back with the id the model gave it.
  const use = first.content.find((block) => block.type === "tool_use")!;
  say(`host:  calls ${use.name} ${JSON.stringify(use.input)}`);
  const { content } = await manager.callTool(use.name, use.input as Record<string, unknown>);
  say(`host:  result ${JSON.stringify(content)}`);
  const result = { type: "tool_result" as const, tool_use_id: use.id, content: content as TextBlockParam[] };
  messages.push({ role: "assistant", content: first.content }, { role: "user", content: [result] });
  await ask(messages, tools);
} catch (error) {
  // An API error carries the server's own explanation in its body: show that, not the raw JSON.
  const body =
    error instanceof Anthropic.APIError ? (error.error as { error?: { message?: string } } | undefined) : undefined;
  say(`host:  ${body?.error?.message ?? (error as Error).message}`);
  process.exitCode = 1;
} finally {
  const groups = manager.processGroups();
  await Promise.all([manager.closeAll(), model.close()]);
  const left = await leftInGroups(groups);
  say(
    left.length === 0
      ? "every server closed, no process left"
      : `${left.length} processes are left: ${left.join(", ")}`,
  );
}
const played = model.failures.length === 0 && model.playedAll();
say(`scripted model: ${model.played()}${played ? ", every request as the script expects" : ""}`);
if (!played) process.exitCode = 1;
//#endregion
