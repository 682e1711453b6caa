import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const tsx = import.meta.resolve("tsx");
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const fake = [process.execPath, here("./fixtures/fake-server.mjs")];
const everything = [fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js")), "stdio"];
// Each case starts Node, tsx and a server; on a busy machine that can exceed vitest's 5 s default.
const slow = { timeout: 20_000 };
let workspace: string;
let ownServer: string[];

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), "learn-mcp-05-cli-"));
  ownServer = [process.execPath, "--import", tsx, here("./server.ts"), workspace];
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

// Runs the CLI as a user would and collects what it printed and how it exited.
async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", tsx, here("./cli.ts"), ...args]);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const [code] = await once(child, "close");
  return { code, stdout, stderr };
}

describe("cli.ts against this step's server", slow, () => {
  it("lists the tools, one per line, and exits 0", async () => {
    const { code, stdout } = await cli("tools", "--", ...ownServer);
    expect(stdout.split("\n").map((line) => line.split(" ")[0])).toEqual([
      "add", "echo", "get_current_time", "read_file", "list_files", "write_file", "sample_media", "add_note", "",
    ]);
    expect(code).toBe(0);
  });

  it("prints 42 for add 2 + 40 and exits 0", async () => {
    expect(await cli("call", "add", '{"a":2,"b":40}', "--", ...ownServer)).toEqual({ code: 0, stdout: "42\n", stderr: "" });
  });

  it("prints a tool error on stderr and exits 1", async () => {
    const result = await cli("call", "read_file", '{"path":"../outside.txt"}', "--", ...ownServer);
    expect(result).toEqual({ code: 1, stdout: "", stderr: '"../outside.txt" is outside the workspace.\n' });
  });

  it("exits 2 with the JSON-RPC error for an unknown tool", async () => {
    const result = await cli("call", "no_such_tool", "{}", "--", ...ownServer);
    expect(result).toEqual({ code: 2, stdout: "", stderr: "error: JSON-RPC error -32602: Tool no_such_tool not found\n" });
  });
});

describe("cli.ts when the server misbehaves", slow, () => {
  it("exits 2 naming the exit code and stderr of a server that dies", async () => {
    const dying = [process.execPath, "-e", "console.error('no config found'); process.exit(5)"];
    const result = await cli("tools", "--", ...dying);
    expect(result).toEqual({ code: 2, stdout: "", stderr: "error: server exited with code 5; its stderr ended with:\nno config found\n" });
  });

  it("exits 2 when the server never answers within --timeout", async () => {
    const result = await cli("--timeout", "300", "tools", "--", ...fake, "silent");
    expect(result).toEqual({ code: 2, stdout: "", stderr: "error: initialize timed out after 300 ms\n" });
  });
});

describe("cli.ts usage", slow, () => {
  it.each([
    ["an unknown command", ["frob", "--", ...fake], "unknown command: frob"],
    ["arguments that are not JSON", ["call", "echo", "{text:1}", "--", ...fake], "tool arguments are not JSON: {text:1}"],
    ["arguments that are not an object", ["call", "echo", "[1]", "--", ...fake], "tool arguments must be a JSON object"],
    ["a missing tool name", ["call", "--", ...fake], "wrong arguments for call"],
    ["a --timeout that is not a number", ["--timeout", "soon", "tools", "--", ...fake], "bad --timeout: soon"],
    ["a --timeout without a value", ["--timeout"], 'missing "--" before the server command'],
    ["a --timeout of zero", ["--timeout", "0", "tools", "--", ...fake], "bad --timeout: 0"],
    ["no --", ["tools", ...fake], 'missing "--" before the server command'],
    ["no server command", ["tools", "--"], 'missing server command after "--"'],
  ])("exits 64 for %s", async (_, args, message) => {
    const { code, stdout, stderr } = await cli(...args);
    expect([code, stdout]).toEqual([64, ""]);
    expect(stderr.split("\n")[0]).toBe(`error: ${message}`);
    expect(stderr).toContain("usage: cli.ts [--timeout <ms>] tools -- <server command...>");
  });
});

describe("cli.ts against @modelcontextprotocol/server-everything", slow, () => {
  it("lists its tools, echo and get-sum among them", async () => {
    const { code, stdout } = await cli("tools", "--", process.execPath, ...everything);
    expect(stdout).toMatch(/^echo +Echoes back the input string$/m);
    expect(stdout).toMatch(/^get-sum +Returns the sum of two numbers$/m);
    expect(code).toBe(0);
  });

  it("calls echo", async () => {
    const result = await cli("call", "echo", '{"message":"héllo ☕"}', "--", process.execPath, ...everything);
    expect(result).toEqual({ code: 0, stdout: "Echo: héllo ☕\n", stderr: "" });
  });
});
