// `ask.ts [--project DIR] [--home DIR] [--timeout MS] [--max-turns N] [--allow GLOB]... "prompt"`: one prompt through
// the agent loop with the project's MCP servers. The model is the Messages API at ANTHROPIC_BASE_URL (the Anthropic
// API when unset), as ANTHROPIC_MODEL, with ANTHROPIC_API_KEY. Every tool call needs approval (approval.ts).
import { existsSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import Anthropic from "@anthropic-ai/sdk";
import { Agent, DEFAULT_MAX_TURNS } from "./agent.ts";
import { approver, terminal } from "./approval.ts";
import { loadConfig } from "./config.ts";
import { DEFAULT_TIMEOUT_MS, McpManager } from "./manager.ts";
import { printable } from "./printable.ts";
import { exitOnSignals } from "./signals.ts";
import { leftInGroups } from "./groups.ts";

export const DEFAULT_MODEL = "claude-sonnet-5-5";
const USAGE = 'usage: ask.ts [--project DIR] [--home DIR] [--timeout MS] [--max-turns N] [--allow GLOB]... "prompt"';

/** Prints the error and the usage line, and exits 64 (a usage error). */
function fail(message: string): never {
  console.error(`error: ${message}\n${USAGE}`);
  process.exit(64);
}

/** `text` as a whole number from 1 to `max`, or a usage error naming `flag`. */
function whole(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > max)
    fail(`bad ${flag}: ${text} (a whole number, 1 to ${max})`);
  return Number(text);
}

/** The prompt and the options from the command line, each checked. */
function options() {
  const spec = {
    project: { type: "string" },
    home: { type: "string" },
    timeout: { type: "string" },
    "max-turns": { type: "string" },
    allow: { type: "string", multiple: true },
  } as const;
  let parsed;
  try {
    parsed = parseArgs({ options: spec, allowPositionals: true });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0]!.trim() === "") fail("give one prompt, quoted");
  const {
    project = process.cwd(),
    home,
    timeout = String(DEFAULT_TIMEOUT_MS),
    "max-turns": turns = String(DEFAULT_MAX_TURNS),
    allow = [],
  } = values;
  for (const [flag, folder] of [
    ["--project", project],
    ["--home", home],
  ] as const) {
    if (folder !== undefined && !(existsSync(folder) && statSync(folder).isDirectory()))
      fail(`${flag} ${folder} is not a folder`);
  }
  const timeoutMs = whole("--timeout", timeout, 2 ** 31 - 1);
  return {
    folders: { project, home },
    timeoutMs,
    maxTurns: whole("--max-turns", turns, 1000),
    allow,
    prompt: positionals[0]!,
  };
}

/** An API error carries the server's own explanation in its body; a connection error, its cause. */
function reason(error: unknown): string {
  if (error instanceof Anthropic.APIError) {
    const body = error.error as { error?: { message?: string } } | undefined;
    if (body?.error?.message) return `${error.status} ${body.error.message}`;
  }
  const { message, cause } = error as Error;
  return cause instanceof Error ? `${message} (${cause.message})` : message;
}

//#region run
const { folders, timeoutMs, maxTurns, allow, prompt } = options();
const key = process.env.ANTHROPIC_API_KEY;
if (!key) fail("ANTHROPIC_API_KEY is not set; nothing was sent");
// The servers inherit this process's environment; the key is the host's, not theirs.
delete process.env.ANTHROPIC_API_KEY;
const hide = (text: string) => text.replaceAll(key, "***"); // an error may quote what it was sent
const baseURL = process.env.ANTHROPIC_BASE_URL || "https://api.anthropic.com";
const model = process.env.ANTHROPIC_MODEL || DEFAULT_MODEL;

const { servers, problems, notes } = loadConfig(folders);
for (const line of [...problems, ...notes]) console.error(printable(`config: ${line}`));
const manager = new McpManager(servers, { timeoutMs });
// The servers lead process groups of their own, so Ctrl-C in a terminal does not reach them: stop them here. A second
// Ctrl-C while they stop changes nothing; one that ignores SIGTERM is SIGKILLed, and the line says so.
exitOnSignals().push(() => manager.closeAll());

let speaking = false; // inside a line of the model's streamed text
// What the model and the servers say reaches a terminal: printable() removes escape sequences and control characters.
const say = (line: string) => {
  console.log(`${speaking ? "\n" : ""}${printable(line)}`);
  speaking = false;
};
const client = new Anthropic({ apiKey: key, baseURL }); // a key passed in code: the SDK reads no other credential
const agent = new Agent(client, manager, {
  model,
  maxTurns,
  approve: approver(allow, terminal()),
  onText: (delta) => {
    const text = printable(delta);
    process.stdout.write(speaking ? text : `model: ${text}`);
    speaking = true;
  },
  onToolCall: ({ name, input }) => say(`host:  ${name} ${JSON.stringify(input)}`),
  onVerdict: ({ allowed, why }) => say(`host:  ${allowed ? "runs it" : "does not run it"}: ${why}`),
  onToolResult: ({ content, is_error }) => say(`host:  ${is_error ? "error" : "result"} ${JSON.stringify(content)}`),
});

say(`host:  asks ${model} at ${baseURL}`);
say(`user:  ${prompt}`);
try {
  const { message, rounds } = await agent.send(prompt);
  say(`(the model ended with stop_reason "${message.stop_reason}" after ${rounds} requests)`);
} catch (error) {
  say(`agent: ${hide(reason(error))}`);
  process.exitCode = 1;
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
