// The printed host configuration works: the entry starts the tutorial's server from an unrelated folder with an empty
// environment (a desktop app does not pass on your shell's PATH), and it answers over stdio. Each host's snippet is
// checked for its shape.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";
import { hostConfigs, serverEntry } from "./host-config.mjs";

const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-host-config-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const script = fileURLToPath(new URL("./host-config.mjs", import.meta.url));

/** Sends each request as a line and resolves with the answers, one per request, in order. */
function talk(entry, requests) {
  const child = spawn(entry.command, entry.args, { cwd: folder, env: {}, stdio: ["pipe", "pipe", "ignore"] });
  const answers = [];
  const done = new Promise((resolve, reject) => {
    child.on("error", reject);
    createInterface({ input: child.stdout }).on("line", (line) => {
      answers.push(JSON.parse(line));
      if (answers.length === requests.length) child.stdin.end();
    });
    child.on("close", () => resolve(answers));
  });
  for (const request of requests) child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...request })}\n`);
  return done;
}

test("the entry starts the hand-written server from any folder with no environment, and it adds", async () => {
  const entry = serverEntry(folder);
  expect(path.isAbsolute(entry.command)).toBe(true);
  const answers = await talk(entry, [
    {
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "host-config-test", version: "1" },
      },
    },
    { id: 2, method: "tools/call", params: { name: "add", arguments: { a: 2, b: 40 } } },
  ]);
  expect(answers.map((answer) => answer.id)).toEqual([1, 2]);
  expect(answers[1].result.content).toEqual([{ type: "text", text: "42" }]);
});

describe("each host's snippet", () => {
  const entry = serverEntry("/srv/sandbox", "/opt/node/bin/node");
  const configs = Object.fromEntries(hostConfigs("learn-mcp", entry).map((config) => [config.host, config]));

  test("Claude Code, Claude Desktop and Cursor take mcpServers; VS Code takes servers with a type", () => {
    expect(hostConfigs("learn-mcp", entry).map((config) => config.host)).toEqual([
      "Claude Code, from its command line",
      "Claude Code, project scope",
      "Claude Desktop",
      "Cursor",
      "VS Code",
    ]);
    expect(JSON.parse(configs["Claude Code, project scope"].text)).toEqual({ mcpServers: { "learn-mcp": entry } });
    expect(JSON.parse(configs["Claude Desktop"].text)).toEqual({ mcpServers: { "learn-mcp": entry } });
    expect(JSON.parse(configs["Cursor"].text)).toEqual({ mcpServers: { "learn-mcp": entry } });
    expect(JSON.parse(configs["VS Code"].text)).toEqual({ servers: { "learn-mcp": { type: "stdio", ...entry } } });
    expect(entry.command).toBe("/opt/node/bin/node");
    expect(entry.args.at(-1)).toBe("/srv/sandbox");
  });

  test("claude mcp add gets the same command and arguments, quoted where the shell needs it", () => {
    const spaced = serverEntry("/srv/my sandbox's", "/opt/node/bin/node");
    const line = hostConfigs("learn-mcp", spaced).find((config) => config.host.endsWith("command line")).text;
    expect(line).toBe(
      `claude mcp add learn-mcp -- /opt/node/bin/node --import ${spaced.args[1]} ${spaced.args[2]} '/srv/my sandbox'\\''s'`,
    );
  });
});

test("a name a host cannot use is refused with exit status 2", async () => {
  const result = await new Promise((resolve) =>
    execFile(process.execPath, [script, "--name", "my server"], (error, stdout, stderr) =>
      resolve({ code: error?.code, stdout, stderr }),
    ),
  );
  expect(result).toEqual({
    code: 2,
    stdout: "",
    stderr: 'host-config: --name my server: use letters, digits, "_" and "-" (at most 64), as tool names need\n',
  });
});
