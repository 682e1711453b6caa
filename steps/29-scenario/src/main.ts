// Demo: the scenario the scripted model will play, read and checked, then matched request by request the way the
// model will match them: the prompt with the tools the manager collected, then the hand-written server's own answer.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig } from "./config.ts";
import { printable } from "./printable.ts";
import { leftInGroups } from "./groups.ts";
import { roleProgram } from "./roles.ts";
import { loadScenario, mismatch } from "./scenario.ts";
import { exitOnSignals } from "./signals.ts";

// Removed on every exit a process can see: the end, an error, and a signal (exitOnSignals stops the servers first).
const beforeExit = exitOnSignals();
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-scenario-")));
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
const turns = loadScenario(scenario);
// What the scenario and the server say reaches a terminal: printable() removes escape sequences and control characters.
const say = (line: string) => console.log(printable(line));
say(`scenario: ${path.basename(scenario)}, ${turns.length} turns, checked as it was read`);

// The SDK loads after the first line: loading it takes most of a second on a busy machine.
const { McpManager } = await import("./manager.ts");
const manager = new McpManager(loadConfig({ project }).servers);
beforeExit.push(() => manager.closeAll());

/** Matches one request body against turn `n` (from 1), as the scripted model will, and says what that turn plays. */
function check(label: string, n: number, body: Record<string, unknown>, ids: string[] = []) {
  const why = mismatch(turns[n - 1]!, { model: "claude-sonnet-5-5", max_tokens: 4096, stream: true, ...body }, ids);
  say(`${label}: ${why === undefined ? `turn ${n} plays` : `refused: ${why}`}`);
  if (why === undefined) for (const block of turns[n - 1]!.reply) say(`  reply ${JSON.stringify(block)}`);
}

const prompt = "Use the add tool to compute 17 + 25.";
try {
  await manager.connectAll();
  // An MCP tool as the Messages API takes one: the same name and description, inputSchema as input_schema.
  const tools = manager.tools().map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    input_schema: tool.inputSchema,
  }));
  const ask = { messages: [{ role: "user", content: prompt }], tools };
  check(`request 1, the prompt and the ${tools.length} tools the manager collected`, 1, ask);
  check("request 1 without the tools", 1, { ...ask, tools: [] });
  check("request 1 not streaming", 1, { ...ask, stream: false });

  // The model names each tool_use it asks for; the next request must answer that id with the result.
  const use = turns[0]!.reply.find((block) => block.type === "tool_use")!;
  const result = await manager.callTool(use.name, use.input);
  say(`host:  calls ${use.name} ${JSON.stringify(use.input)}, result ${JSON.stringify(result.content)}`);
  const asked = { role: "assistant", content: [{ ...use, id: "toolu_1" }] };
  const answer = (content: unknown[]) => ({
    ...ask,
    messages: [
      ...ask.messages,
      asked,
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content }] },
    ],
  });
  check("request 2, with that result", 2, answer(result.content), ["toolu_1"]);
  check('request 2, with "41" instead', 2, answer([{ type: "text", text: "41" }]), ["toolu_1"]);

  const broken = path.join(root, "broken.json");
  writeFileSync(broken, JSON.stringify({ turns: [{ expect: {}, reply: [use] }] }));
  try {
    loadScenario(broken);
  } catch (error) {
    say(`a script that ends on a tool_use: ${(error as Error).message.replace(root, "<demo>")}`);
  }
} finally {
  const groups = manager.processGroups();
  await manager.closeAll();
  const left = await leftInGroups(groups);
  say(
    left.length === 0
      ? "every server closed, no process left"
      : `${left.length} processes are left: ${left.join(", ")}`,
  );
}
//#endregion
