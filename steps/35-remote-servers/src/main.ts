// Demo: a project with a local server and three remote ones: one that works behind a bearer token taken from
// the environment, one sent a stale token, one that is offline. ask.ts, against the scripted model, uses the remote
// add tool. `--live ["prompt"]` sends the same to the real API, as ask.ts does.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { liveEnv } from "./live.ts";
import { roleProgram } from "./roles.ts";
import { loadScenario } from "./scenario.ts";
import { startScriptedModel } from "./scripted-model.ts";
import { exitOnSignals } from "./signals.ts";

// Removed on every exit a process can see: the end, an error, and a signal (exitOnSignals turns it into an exit).
exitOnSignals();
const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-remote-servers-")));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));
const [project, sandbox] = [path.join(root, "project"), path.join(root, "sandbox")];
mkdirSync(project);
mkdirSync(sandbox);

//#region remote
// The remote server: a stand-in started here on 127.0.0.1 (chapters to come build real ones). Its token is made up
// for this run, handed to ask.ts in its environment, and never printed.
const token = randomBytes(16).toString("hex");
const fixture = fileURLToPath(new URL("./fixtures/remote-server.mjs", import.meta.url));
const remote = spawn(process.execPath, [fixture, token], { stdio: ["pipe", "ignore", "pipe"] });
const exitedEarly = once(remote, "exit").then(([code]) =>
  Promise.reject(new Error(`the remote server exited with code ${code}`)),
);
const [listening] = (await Promise.race([once(createInterface({ input: remote.stderr }), "line"), exitedEarly])) as [
  string,
];
const url = listening.replace("listening on ", "");
/** Ends the remote server: it exits when its stdin ends. */
async function stopRemote(): Promise<void> {
  if (remote.exitCode !== null) return;
  remote.stdin.end();
  await once(remote, "exit");
}

// A port nothing listens on: taken from the system, then let go.
const probe = createServer().listen(0, "127.0.0.1");
await once(probe, "listening");
const offline = `http://127.0.0.1:${(probe.address() as { port: number }).port}/mcp`;
probe.close();

const config = {
  mcpServers: {
    demo: {
      command: process.execPath,
      args: ["--import", import.meta.resolve("tsx"), roleProgram("hand-written server"), sandbox],
    },
    remote: { type: "http", url, headers: { Authorization: "Bearer ${REMOTE_TOKEN}" } },
    "stale-token": { type: "http", url, headers: { Authorization: "Bearer an-old-token" } },
    offline: { type: "http", url: offline },
  },
};
writeFileSync(path.join(project, ".mcp.json"), JSON.stringify(config, null, 2));
//#endregion

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
  const prompt = process.argv[process.argv.indexOf("--live") + 1] ?? "Use the remote add tool to compute 17 + 25.";
  let env;
  try {
    env = liveEnv(fileURLToPath(new URL("../../../.env", import.meta.url)));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  // stdin is the terminal, so each tool call is put to you as y/n.
  const status = await ask([prompt], { ...env, REMOTE_TOKEN: token }, "inherit");
  await stopRemote();
  process.exit(status);
}
//#endregion

//#region scripted
console.log(
  `<demo>/project/.mcp.json:\n${readFileSync(path.join(project, ".mcp.json"), "utf8")
    .replaceAll(root, "<demo>")
    .replace(process.execPath, "node")
    .replace(import.meta.resolve("tsx"), "<tsx>")}\n`,
);
const prompt = "Use the remote add tool to compute 17 + 25.";
const model = await startScriptedModel(
  loadScenario(fileURLToPath(new URL("./scenarios/remote.json", import.meta.url))),
);
console.log(`$ REMOTE_TOKEN=<this run's token> ask.ts --project <demo>/project --allow 'mcp__remote__*' '${prompt}'`);
// The model's key is a placeholder: the stand-in only checks that one is sent.
const env = {
  ...process.env,
  REMOTE_TOKEN: token,
  ANTHROPIC_API_KEY: "scripted-model-takes-any-key",
  ANTHROPIC_BASE_URL: model.url,
  ANTHROPIC_MODEL: "",
};
const status = await ask(["--allow", "mcp__remote__*", prompt], env, "ignore");
await Promise.all([model.close(), stopRemote()]);
const played = status === 0 && model.failures.length === 0 && model.playedAll();
console.log(
  `exit status ${status}; scripted model: ${model.played()}${played ? ", every request as the script expects" : ""}`,
);
if (!played) process.exitCode = 1;
//#endregion
