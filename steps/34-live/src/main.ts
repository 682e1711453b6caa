// Demo: ask.ts, the host's command line, against the scripted model twice: once with an allow list that lets
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
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-live-")));
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

/** Runs ask.ts on the demo project; resolves with its exit status. */
function ask(args: string[], env: NodeJS.ProcessEnv, stdin: "inherit" | "ignore"): Promise<number> {
  const program = fileURLToPath(new URL("./ask.ts", import.meta.url));
  const child = spawn(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), program, "--project", project, ...args],
    { env, stdio: [stdin, "inherit", "inherit"] },
  );
  return new Promise((resolve) => child.on("exit", (code) => resolve(code ?? 1)));
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
async function play(scenario: string, allow: string, prompt: string): Promise<void> {
  const model = await startScriptedModel(
    loadScenario(fileURLToPath(new URL(`./scenarios/${scenario}`, import.meta.url))),
  );
  console.log(
    `$ ask.ts --project <demo>/project --allow '${allow}' '${prompt}'    (stdin is not a terminal; model: ${scenario})`,
  );
  // The key is a placeholder: the stand-in only checks that one is sent.
  const env = {
    ...process.env,
    ANTHROPIC_API_KEY: "scripted-model-takes-any-key",
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_MODEL: "",
  };
  const status = await ask(["--allow", allow, prompt], env, "ignore");
  await model.close();
  const played = status === 0 && model.failures.length === 0 && model.playedAll();
  console.log(
    `exit status ${status}; scripted model: ` +
      `${model.played()}${played ? ", every request as the script expects" : ""}\n`,
  );
  if (!played) process.exitCode = 1;
}

await play("add.json", "mcp__demo__*", "Use the add tool to compute 17 + 25.");
await play("refused.json", "mcp__demo__add", 'Save the note "buy milk" as notes.txt.');
console.log(`notes.txt in the sandbox: ${existsSync(path.join(sandbox, "notes.txt")) ? "written" : "not there"}`);
//#endregion
