// cli.ts run as a user runs it: a separate process, judged by its stdout, stderr and exit code.
// Every broken server and every signal must end in a clear message and a stopped server, never in a hang.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isRunning } from "./test/processes.ts";

vi.setConfig({ testTimeout: 30_000 });

const tsx = import.meta.resolve("tsx");
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const fake = (mode: string) => [process.execPath, here("./fixtures/fake-server.mjs"), mode];
let sandbox: string;
let ownServer: string[];

beforeAll(async () => {
  sandbox = await mkdtemp(join(tmpdir(), "learn-mcp-cli-test-"));
  ownServer = [process.execPath, "--import", tsx, here("./server.ts"), sandbox];
});
afterAll(() => rm(sandbox, { recursive: true, force: true }));

function start(args: string[]) {
  const child = spawn(process.execPath, ["--import", tsx, here("./cli.ts"), ...args]);
  const output = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => (output.stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (output.stderr += chunk));
  const done = once(child, "close").then(([code]) => ({ code: code as number | null, ...output }));
  return { child, output, done };
}
const cli = (...args: string[]) => start(args).done;

describe("against this step's server", () => {
  it("lists the tools, one per line, and exits 0", async () => {
    const { code, stdout } = await cli("tools", "--", ...ownServer);
    expect(stdout.split("\n").map((line) => line.split(" ")[0])).toEqual(["add", "echo", "createFile", ""]);
    expect(code).toBe(0);
  });

  it("prints 42 for add 2 + 40 and exits 0", async () => {
    expect(await cli("call", "add", '{"a":2,"b":40}', "--", ...ownServer)).toEqual({
      code: 0,
      stdout: "42\n",
      stderr: "",
    });
  });

  it("prints a tool error on stderr and exits 1", async () => {
    const result = await cli("call", "createFile", '{"path":"../outside.txt","content":"x"}', "--", ...ownServer);
    expect(result).toEqual({
      code: 1,
      stdout: "",
      stderr: 'createFile refused "../outside.txt": the path must not contain ".."\n',
    });
  });

  it("exits 2 with the JSON-RPC error for an unknown tool", async () => {
    const result = await cli("call", "no_such_tool", "{}", "--", ...ownServer);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: "error: JSON-RPC error -32602: Invalid params: unknown tool no_such_tool\n",
    });
  });
});

describe("bad usage exits 64 before starting anything", () => {
  it.each([
    [["tools"], 'missing "--" before the server command'],
    [["tools", "--"], 'missing server command after "--"'],
    [["call", "add", "{", "--", "x"], "tool arguments are not JSON: {"],
    [["call", "add", "[1]", "--", "x"], "tool arguments must be a JSON object"],
    [["--timeout", "0", "tools", "--", "x"], "bad --timeout: 0"],
    [
      ["--timeout", String(2 ** 31), "tools", "--", "x"],
      `bad --timeout: ${2 ** 31} (a whole number of milliseconds, 1 to ${2 ** 31 - 1})`,
    ],
    [["list", "--", "x"], "unknown command: list"],
  ])("%j", async (args, message) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(64);
    expect(stderr).toContain(`error: ${message}`);
    expect(stderr).toContain("usage: cli.ts");
  });
});

describe("a server that misbehaves ends the run with exit 2, a clear message and the server stopped", () => {
  it.each([
    ["floods stdout", ["tools"], "flood", "error: the server sent a line over 16777216 bytes"],
    ["closes its stdout", ["tools"], "close-stdout", "error: server closed its output but is still running"],
    ["sends a malformed error", ["tools"], "bad-error", "error: the server answered with a malformed error"],
    [
      "returns a null result",
      ["call", "echo", "{}"],
      "null-result",
      "error: tools/call returned a malformed result: null",
    ],
    ["pages forever", ["tools"], "endless-pages", "error: tools/list went past 100 pages; giving up"],
    ["repeats a cursor", ["tools"], "repeat-cursor", 'error: tools/list repeated the cursor "again"'],
  ])("when it %s", async (_name, command, mode, message) => {
    const started = Date.now();
    const { code, stderr } = await cli("--timeout", "20000", ...command, "--", ...fake(mode));
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("names the exit code and the stderr of a server that dies at start", async () => {
    const dying = [process.execPath, "-e", "console.error('no config found'); process.exit(5)"];
    const { code, stderr } = await cli("tools", "--", ...dying);
    expect(code).toBe(2);
    expect(stderr).toBe("error: server exited with code 5; its stderr ended with:\nno config found\n");
  });

  it("lists 200,000 tools from one page", async () => {
    const { code, stdout } = await cli("tools", "--", ...fake("huge-page"));
    expect(code).toBe(0);
    expect(stdout.split("\n")).toHaveLength(200_001);
  });

  it("removes control characters from what the server sends before printing it", async () => {
    const listed = await cli("tools", "--", ...fake("control"));
    expect(listed.stdout).toBe("evil[2J  rings the bell\n");
    const called = await cli(
      "call",
      "echo",
      JSON.stringify({ text: "\u001b]0;pwned\u0007ok\ttab\nline" }),
      "--",
      ...fake("normal"),
    );
    expect(called.stdout).toBe("]0;pwnedok\ttab\nline\n");
  });
});

describe("every way out stops the server", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s while a call waits: exit %i, and the wrapper and its server are gone", async (signal, status) => {
    const run = start(["call", "sleep", '{"ms":20000}', "--", process.execPath, here("./fixtures/wrapper.mjs")]);
    // The wrapper's server reports nothing until asked, so wait until the CLI's tree has all three processes.
    const wrapper = await waitForChild(run.child.pid!, "wrapper.mjs");
    const server = await waitForChild(wrapper, "fake-server.mjs");
    run.child.kill(signal);
    expect((await run.done).code).toBe(status);
    for (let waited = 0; waited < 5000 && (isRunning(wrapper) || isRunning(server)); waited += 50) await sleep(50);
    expect([isRunning(wrapper), isRunning(server)]).toEqual([false, false]);
  });

  it("a second signal while the server stops exits at once, and still stops the wrapper and its server", async () => {
    const run = start(["call", "sleep", '{"ms":20000}', "--", process.execPath, here("./fixtures/wrapper.mjs")]);
    const wrapper = await waitForChild(run.child.pid!, "wrapper.mjs");
    const server = await waitForChild(wrapper, "fake-server.mjs");
    try {
      run.child.kill("SIGINT");
      await sleep(200); // the CLI now waits for the wrapper to go, which ignores the end of its input and SIGTERM
      run.child.kill("SIGINT");
      expect((await run.done).code).toBe(130);
      for (let waited = 0; waited < 5000 && (isRunning(wrapper) || isRunning(server)); waited += 50) await sleep(50);
      expect([isRunning(wrapper), isRunning(server)]).toEqual([false, false]);
    } finally {
      // The wrapper leads the group the CLI gave the server: if the CLI failed to stop it, this test does.
      if (isRunning(wrapper)) process.kill(-wrapper, "SIGKILL");
    }
  });

  it("ends quietly when its reader stops early, and still stops the server", async () => {
    const run = start(["tools", "--", ...fake("huge-page")]);
    run.child.stdout.once("data", () => run.child.stdout.destroy());
    const { code } = await run.done;
    expect(run.output.stderr).toBe("");
    expect(code).toBe(0);
  });
});

/**
 * The child of `pid` whose command line names `file`, once it exists: from ps, as Linux and macOS both have it. Named,
 * since tsx may give the CLI a child of its own: esbuild, when the file was not yet in its cache.
 */
async function waitForChild(pid: number, file: string): Promise<number> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    const ps = execFileSync("ps", ["-A", "-o", "pid=", "-o", "ppid=", "-o", "args="], { encoding: "utf8" });
    const rows = ps.split("\n").map((row) => row.trim().split(/\s+/));
    const child = rows.find(([, ppid, ...args]) => Number(ppid) === pid && args.some((arg) => arg.endsWith(file)));
    if (child) return Number(child[0]);
    await sleep(50);
  }
  throw new Error(`process ${pid} started no ${file}`);
}
