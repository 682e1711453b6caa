// Demo: one prompt through the agent loop. The project's server is the hand-written server (through
// the role table); the model is the scripted stand-in on 127.0.0.1, driven by the real Anthropic SDK client.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "./config.ts";
import { printable } from "./printable.ts";
import { leftInGroups } from "./groups.ts";
import { roleProgram } from "./roles.ts";
import { loadScenario } from "./scenario.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { exitOnSignals } from "./signals.ts";

// Removed on every exit a process can see: the end, an error, and a signal (exitOnSignals stops the servers first).
const beforeExit = exitOnSignals();
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-agent-loop-")));
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
const { Agent } = await import("./agent.ts");
const { McpManager } = await import("./manager.ts");
// The SDK needs a key to send; the stand-in only checks that one is there.
const client = new Anthropic({ apiKey: "the-scripted-model-takes-any-key", baseURL: model.url, maxRetries: 0 });
const manager = new McpManager(loadConfig({ project }).servers);
beforeExit.push(() => manager.closeAll());
const agent = new Agent(client, manager, {
  model: "claude-sonnet-5-5",
  onText: (delta) => {
    process.stdout.write(speaking ? printable(delta) : `model: ${printable(delta)}`);
    speaking = true;
  },
  onToolCall: ({ name, input }) => say(`host:  calls ${name} ${JSON.stringify(input)}`),
  onToolResult: ({ content, is_error }) => say(`host:  ${is_error ? "error" : "result"} ${JSON.stringify(content)}`),
});

const prompt = "Use the add tool to compute 17 + 25.";
say(`servers running before the first message: ${manager.processGroups().length}`);
say(`user:  ${prompt}`);
try {
  const { message, rounds } = await agent.send(prompt);
  say(`(the model ended with stop_reason "${message.stop_reason}" after ${rounds} requests)`);
} catch (error) {
  // An API error carries the server's own explanation in its body: show that, not the raw JSON.
  const body =
    error instanceof Anthropic.APIError ? (error.error as { error?: { message?: string } } | undefined) : undefined;
  say(`agent: ${body?.error?.message ?? (error as Error).message}`);
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
