// repl.ts as a user runs it: commands piped to its stdin, judged by what it prints, its exit status and the
// processes it leaves. Every bad command is answered with an error line, and the next command still runs.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { leftInGroups } from "./groups.ts";
import { roleProgram } from "./roles.ts";
import { fixture } from "./test/servers.ts";
import { groupsBelow, leftAfter } from "./test/tree.ts";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-repl-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const repl = fileURLToPath(new URL("./repl.ts", import.meta.url));
const tsx = import.meta.resolve("tsx");

/** A project folder whose .mcp.json holds `servers`. */
function project(name: string, servers: object): string {
  const folder = path.join(root, name);
  mkdirSync(folder);
  writeFileSync(path.join(folder, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  return folder;
}
const toolsServer = (label: string, ...tools: string[]) => ({
  command: process.execPath,
  args: [fixture("tools.mjs"), label, ...tools],
});

function runRepl(args: string[], lines: string[]) {
  const run = spawnSync(process.execPath, ["--import", tsx, repl, ...args], {
    input: lines.map((line) => `${line}\n`).join(""),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("answers each command in order, prints every error, and closes every server when stdin ends", () => {
  const folder = project("fixtures", {
    a: toolsServer("a", "open"),
    "a.b": toolsServer("ab", "open"),
    gone: { command: "node", args: ["-e", "process.exit(4)"] },
  });
  const { status, stdout } = runRepl(
    ["--project", folder],
    [
      "/mcp",
      "/mcp tools a",
      "/mcp call a open {}",
      "/mcp call a.b open",
      "/mcp call a open [1]",
      "/mcp call a open {x",
      "/mcp call a nothing {}",
      "/mcp tools nowhere",
      "/mcp reconnect nowhere",
      "/mcp call a crash {}",
      "/mcp call a open {}",
      "/mcp reconnect gone",
      "ls",
      "/mcp call",
    ],
  );
  const [transcript, last] = [
    stdout.trimEnd().split("\n").slice(0, -1).join("\n"),
    stdout.trimEnd().split("\n").at(-1),
  ];
  const answers = transcript.split("\n> ").slice(1);
  expect(answers).toEqual([
    [
      "/mcp",
      "a            ready         5 tools",
      "a.b          ready         5 tools",
      "gone         failed        0 tools  the handshake failed: exited with code 4",
    ].join("\n"),
    [
      "/mcp tools a",
      "mcp__a__crash    Exits in the middle of the call.",
      "mcp__a__noise    Writes a line that is not JSON and an answer to no request to stdout, then answers.",
      'mcp__a__open     Answers "a:open".',
      "mcp__a__setting  Returns FIXTURE_SETTING from the environment.",
      "mcp__a__unlock   Adds the tool secret.",
    ].join("\n"),
    "/mcp call a open {}\na:open",
    // "a.b" is offered as mcp__a_b__open, and still reached by its own name.
    "/mcp call a.b open\nab:open",
    "/mcp call a open [1]\nerror: the arguments must be a JSON object",
    "/mcp call a open {x\nerror: the arguments are not JSON: {x",
    '/mcp call a nothing {}\nerror: server "a" offers no tool "nothing"',
    '/mcp tools nowhere\nerror: no server "nowhere" is configured',
    '/mcp reconnect nowhere\nerror: no server "nowhere" is configured',
    expect.stringMatching(
      /^\/mcp call a crash \{\}\nerror: tools\/call "crash" on server "a" failed: exited with code 7/,
    ),
    "/mcp call a open {}\na:open", // restarted on its next use
    "/mcp reconnect gone\ngone         failed        0 tools  the handshake failed: exited with code 4",
    "ls\nerror: unknown command: ls; try /help",
    "/mcp call\nerror: bad /mcp command: /mcp call; try /help",
  ]);
  expect(last).toBe("stdin ended: every server closed, no process left");
  expect(status).toBe(0);
});

test("prints 42 for the seed lesson's /mcp call demo add, against the hand-written server", () => {
  const sandbox = path.join(root, "sandbox");
  mkdirSync(sandbox);
  const folder = project("seed", {
    demo: { command: process.execPath, args: ["--import", tsx, roleProgram("hand-written server"), sandbox] },
  });
  const { status, stdout } = runRepl(
    ["--project", folder],
    ['/mcp call demo add {"a":2,"b":40}', '/mcp call demo echo { "message":  "two  spaces" }'],
  );
  expect(stdout).toContain('> /mcp call demo add {"a":2,"b":40}\n42\n');
  // The arguments are taken as typed: the spaces inside the JSON string survive.
  expect(stdout).toContain('> /mcp call demo echo { "message":  "two  spaces" }\ntwo  spaces\n');
  expect(status).toBe(0);
});

// Named by what is wrong, not by the arguments: a temporary path in a test's name would change it at every run.
test.each([
  ["--timeout 0", ["--timeout", "0"], "bad --timeout: 0"],
  ["a --timeout past what a timer takes", ["--timeout", String(2 ** 31)], `bad --timeout: ${2 ** 31}`],
  [
    "a --project that does not exist",
    ["--project", path.join(root, "nowhere")],
    `--project ${path.join(root, "nowhere")} is not a folder`,
  ],
  ["an unknown option", ["--verbose"], "Unknown option '--verbose'"],
])("exits 64 on bad usage: %s", (_, args, message) => {
  const { status, stdout, stderr } = runRepl(args, []);
  expect({ status, stdout }).toEqual({ status: 64, stdout: "" });
  expect(stderr).toContain(`error: ${message}`);
});

test("SIGTERM while it waits for a command closes its servers and exits 143", async () => {
  const folder = project("signal", { a: toolsServer("a", "open") });
  const child = spawn(process.execPath, ["--import", tsx, repl, "--project", folder], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  while (!stdout.includes("servers configured")) await sleep(50);
  // The REPL's one server leads a process group of its own; tsx's esbuild, when the REPL has one, stays in the REPL's.
  const [server] = groupsBelow(child.pid!) as [number];
  expect(await leftInGroups([server], 0)).toEqual([server]);
  child.kill("SIGTERM");
  const [status] = await once(child, "exit");
  expect(status).toBe(143);
  expect(await leftInGroups([server], 5000)).toEqual([]);
});

test("a second SIGINT changes nothing: a server ignoring SIGTERM is SIGKILLed and named; none left", async () => {
  // A launcher that ignores SIGTERM and the end of its stdin, and its server, which does the same.
  const folder = project("stubborn", {
    stubborn: { command: process.execPath, args: [fixture("wrapper.mjs"), "stubborn", "open"] },
  });
  const child = spawn(process.execPath, ["--import", tsx, repl, "--project", folder], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let [stdout, stderr] = ["", ""];
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  while (!stdout.includes("servers configured")) await sleep(50);
  const [group] = groupsBelow(child.pid!);
  child.kill("SIGINT");
  await sleep(100); // the first one is being handled: the host is stopping its server
  child.kill("SIGINT");
  const [status, signal] = await once(child, "close"); // not "exit": "close" comes once stderr has ended
  expect([status, signal]).toEqual([130, null]);
  expect(await leftAfter([group!], 0)).toEqual([]);
  expect(stderr).toContain(`[stubborn] still running 2000 ms after SIGTERM: SIGKILL to its process group ${group}\n`);
}, 30_000);
