// loadConfig on a project folder written by each test: which shapes are read, and that every kind of bad
// configuration costs exactly one server (or the file) and one precise line.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { loadConfig, type HostConfig } from "./config.ts";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A fresh project; `files` maps "project/…" to a JSON value, or to raw text. */
function folders(files: Record<string, unknown>) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-config-")));
  roots.push(root);
  const project = path.join(root, "project");
  mkdirSync(project);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  }
  return { project, root };
}

const summary = ({ servers }: HostConfig) => servers.map(({ name, entry }) => ({ name, entry }));
const stdio = (command: string, args: string[] = [], env = {}) => ({ type: "stdio", command, args, env });

describe("the file", () => {
  test("reads the servers under mcpServers, in the file's order", () => {
    const { project } = folders({
      "project/.mcp.json": { mcpServers: { team: { command: "team" }, demo: { command: "demo", args: ["-v"] } } },
    });
    const config = loadConfig({ project });
    expect(summary(config)).toEqual([
      { name: "team", entry: stdio("team") },
      { name: "demo", entry: stdio("demo", ["-v"]) },
    ]);
    expect(config.problems).toEqual([]);
  });

  test("accepts the bare map of servers in .mcp.json", () => {
    const { project } = folders({ "project/.mcp.json": { demo: { command: "demo" } } });
    expect(summary(loadConfig({ project }))).toEqual([{ name: "demo", entry: stdio("demo") }]);
  });

  test("a project without .mcp.json has no servers and no problems", () => {
    const { project } = folders({});
    expect(loadConfig({ project })).toEqual({ servers: [], problems: [] });
  });
});

describe("entries", () => {
  test("reads every field of a stdio and an http entry, cwd relative to the project", () => {
    const { project } = folders({
      "project/.mcp.json": {
        mcpServers: {
          local: { type: "stdio", command: "node", args: ["s.js"], env: { A: "1" }, cwd: "tools" },
          remote: { type: "http", url: "https://example.com/mcp", headers: { "X-Team": "blue" } },
        },
      },
    });
    expect(loadConfig({ project }).servers.map((server) => server.entry)).toEqual([
      {
        type: "stdio",
        command: "node",
        args: ["s.js"],
        env: { A: "1" },
        cwd: path.join(project, "tools"),
      },
      { type: "http", url: "https://example.com/mcp", headers: { "X-Team": "blue" } },
    ]);
  });
});

describe("bad configuration costs only itself", () => {
  test.each([
    ["no command", { args: ["x"] }, "command: missing"],
    ["an empty command", { command: "" }, "command: empty"],
    [
      "a url without a type",
      { url: "https://example.com/mcp" },
      'command: missing (a remote server needs "type": "http")',
    ],
    ["a command that is not a string", { command: ["node"] }, "command: expected a string"],
    ["args that are not an array", { command: "x", args: "-v" }, "args: expected an array of strings"],
    ["an argument that is not a string", { command: "x", args: ["-v", 2] }, "args[1]: expected a string"],
    ["env that is not an object", { command: "x", env: ["A=1"] }, "env: expected an object of strings"],
    ["an env value that is not a string", { command: "x", env: { PORT: 8080 } }, "env.PORT: expected a string"],
    ["a cwd that is not a string", { command: "x", cwd: 1 }, "cwd: expected a string"],
    [
      "an unknown type",
      { type: "websocket", url: "ws://x" },
      'type: unknown type "websocket" (expected "stdio" or "http")',
    ],
    [
      "the older sse type",
      { type: "sse", url: "https://x/sse" },
      'type: "sse" is the older HTTP+SSE transport, not supported here; use "http"',
    ],
    ["an http entry without url", { type: "http" }, "url: missing"],
    [
      "a url that is not http",
      { type: "http", url: "ftp://example.com" },
      "url: not an http or https URL: ftp://example.com",
    ],
    [
      "headers that are not strings",
      { type: "http", url: "https://x/mcp", headers: { "X-N": 1 } },
      "headers.X-N: expected a string",
    ],
    ["an entry that is not an object", "node server.js", "entry: expected an object"],
  ])("%s", (_name, entry, why) => {
    const { project } = folders({ "project/.mcp.json": { mcpServers: { bad: entry, good: { command: "good" } } } });
    const config = loadConfig({ project });
    expect(config.servers.map((server) => server.name)).toEqual(["good"]);
    expect(config.problems).toEqual([`${project}/.mcp.json: server "bad": ${why}; skipped`]);
  });

  test("a file that is not JSON is skipped with a line that says why", () => {
    const { project } = folders({ "project/.mcp.json": "{ not json" });
    const config = loadConfig({ project });
    expect(config.servers).toEqual([]);
    expect(config.problems).toEqual([
      expect.stringMatching(new RegExp(`^${project}/\\.mcp\\.json: not valid JSON \\(.+\\); its servers are skipped$`)),
    ]);
  });

  test("a folder where a file should be is called a folder, not bad JSON", () => {
    const { project } = folders({ "project/.mcp.json/inside": "" });
    expect(loadConfig({ project }).problems).toEqual([
      `${project}/.mcp.json: is a folder, not read; its servers are skipped`,
    ]);
  });

  // A socket, not a named pipe: a reader that opened a pipe without looking would hang this test instead of failing it.
  test("a socket where a file should be is not read, and not called bad JSON", async () => {
    const { project } = folders({});
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(path.join(project, ".mcp.json"), resolve));
    try {
      expect(loadConfig({ project }).problems).toEqual([
        `${project}/.mcp.json: is not a regular file (a named pipe, a socket or a device), not read; its servers are skipped`,
      ]);
    } finally {
      await new Promise((resolve) => socket.close(resolve));
    }
  });

  test.each([
    [
      "mcpServers that is not an object",
      { mcpServers: ["demo"] },
      "mcpServers: expected an object of servers; skipped",
    ],
    ["a file that is not an object", [], "expected an object; its servers are skipped"],
  ])("%s", (_name, json, why) => {
    const { project } = folders({ "project/.mcp.json": json });
    expect(loadConfig({ project })).toEqual({ servers: [], problems: [`${project}/.mcp.json: ${why}`] });
  });

  test("treats __proto__ and constructor as server names like any other", () => {
    const { project } = folders({
      "project/.mcp.json": '{"mcpServers":{"__proto__":{"command":"a"},"constructor":{"command":"b"}}}',
    });
    expect(loadConfig({ project }).servers.map((server) => server.name)).toEqual(["__proto__", "constructor"]);
  });
});
