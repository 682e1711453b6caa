// Step 21 demo: ask.ts, the host's command line, against the scripted model twice: once with an allow list that lets
// the add call run, once without createFile in it, so the call is refused. `--live ["prompt"]` sends ask.ts to the
// real API instead, with the key from the environment or .env, and asks y/n at the terminal.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { liveEnv } from "./live.ts";
import { roleProgram } from "./roles.ts";
import { loadScenario } from "./scenario.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { exitOnSignals } from "./signals.ts";

// Removed on every exit a process can see: the end, an error, and a signal (exitOnSignals turns it into an exit).
exitOnSignals();
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-21-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const [project, sandbox] = [path.join(root, "project"), path.join(root, "sandbox")];
mkdirSync(project);
mkdirSync(sandbox);
const server = roleProgram("hand-written server");
writeFileSync(path.join(project, ".mcp.json"), JSON.stringify({
  mcpServers: { demo: { command: process.execPath, args: ["--import", import.meta.resolve("tsx"), server, sandbox] } },
}));

type Kept = [NodeJS.WriteStream, Buffer][];

/** Runs ask.ts on the demo project; resolves with its exit status. Its output reaches ours as it comes, or is `kept`
 * in the order it came, so that two runs can go side by side and still be shown one after the other. */
function ask(args: string[], env: NodeJS.ProcessEnv, stdin: "inherit" | "ignore", kept?: Kept): Promise<number> {
  const program = fileURLToPath(new URL("./ask.ts", import.meta.url));
  const output = kept ? "pipe" : "inherit";
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), program, "--project", project, ...args], { env, stdio: [stdin, output, output] });
  child.stdout?.on("data", (chunk: Buffer) => kept?.push([process.stdout, chunk]));
  child.stderr?.on("data", (chunk: Buffer) => kept?.push([process.stderr, chunk]));
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}

//#region live
if (process.argv.includes("--live")) {
  const prompt = process.argv[process.argv.indexOf("--live") + 1] ?? "Use the add tool to compute 17 + 25.";
  let env;
  try {
    env = liveEnv(fileURLToPath(new URL("../../../.env", import.meta.url)));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  // stdin is the terminal, so each tool call is put to you as y/n.
  process.exit(await ask([prompt], env, "inherit"));
}
//#endregion

//#region scripted
/** Plays one scenario: ask.ts against the scripted model, which must see exactly the requests it expects. */
async function play(scenario: string, allow: string, prompt: string): Promise<() => void> {
  const model = await startScriptedModel(loadScenario(fileURLToPath(new URL(`./scenarios/${scenario}`, import.meta.url))));
  // The key is a placeholder: the stand-in only checks that one is sent.
  const env = { ...process.env, ANTHROPIC_API_KEY: "scripted-model-takes-any-key", ANTHROPIC_BASE_URL: model.url, ANTHROPIC_MODEL: "" };
  const kept: Kept = [];
  const status = await ask(["--allow", allow, prompt], env, "ignore", kept);
  await model.close();
  const played = status === 0 && model.failures.length === 0 && model.playedAll();
  if (!played) process.exitCode = 1;
  return () => {
    for (const [stream, chunk] of kept) stream.write(chunk);
    console.log(`exit status ${status}; scripted model: ${model.played()}${played ? ", every request as the script expects" : ""}\n`);
  };
}

// Each scenario has its own model and its own server, so both run at once; each is shown whole, in this order.
const scenarios = [
  ["add.json", "mcp__demo__*", "Use the add tool to compute 17 + 25."],
  ["refused.json", "mcp__demo__add", 'Save the note "buy milk" as notes.txt.'],
] as const;
const plays = scenarios.map(([scenario, allow, prompt]) => play(scenario, allow, prompt));
for (const [i, [scenario, allow, prompt]] of scenarios.entries()) {
  console.log(`$ ask.ts --project <demo>/project --allow '${allow}' '${prompt}'    (stdin is not a terminal; model: ${scenario})`);
  (await plays[i]!)();
}
console.log(`notes.txt in the sandbox: ${existsSync(path.join(sandbox, "notes.txt")) ? "written" : "not there"}`);
//#endregion
