// loadConfig on folders written by each test: which scope wins, which shapes are read, how ${VAR} expands, and
// that every kind of bad configuration costs exactly one server (or one file) and one precise line.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { loadConfig, type HostConfig } from "./config.ts";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })));

/** A fresh home and project; `files` maps "home/…" or "project/…" to a JSON value, or to raw text. */
function folders(files: Record<string, unknown>) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-config-")));
  roots.push(root);
  const [home, project] = [path.join(root, "home"), path.join(root, "project")];
  mkdirSync(home);
  mkdirSync(project);
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    // "PROJECT" as a key stands for the project's real path, the key of its local scope.
    writeFileSync(
      file,
      typeof content === "string" ? content : JSON.stringify(content).replaceAll('"PROJECT"', JSON.stringify(project)),
    );
  }
  return { home, project, root };
}

const summary = ({ servers }: HostConfig) =>
  servers.map(({ name, scope, entry, overrides }) => ({ name, scope, entry, overrides }));
const stdio = (command: string, args: string[] = [], env = {}) => ({
  type: "stdio",
  command,
  args,
  env,
  shown: [command, ...args].join(" "),
});

describe("scopes", () => {
  test("local wins over project over user, with the whole entry, and each scope's own names are kept", () => {
    const { home, project } = folders({
      "home/.claude.json": {
        mcpServers: { demo: { command: "user-demo", env: { ONLY_IN_USER: "1" } }, mine: { command: "mine" } },
        projects: { PROJECT: { mcpServers: { demo: { command: "local-demo" } } } },
      },
      "project/.mcp.json": {
        mcpServers: { demo: { command: "project-demo", args: ["-v"] }, team: { command: "team" } },
      },
    });
    const config = loadConfig({ home, project }, {});
    expect(summary(config)).toEqual([
      { name: "demo", scope: "local", entry: stdio("local-demo"), overrides: ["project", "user"] },
      { name: "team", scope: "project", entry: stdio("team"), overrides: [] },
      { name: "mine", scope: "user", entry: stdio("mine"), overrides: [] },
    ]);
    expect(config.problems).toEqual([]);
  });

  test("finds the local scope under the project's real path, when the project is reached through a link", () => {
    const { home, project, root } = folders({
      "home/.claude.json": { projects: { PROJECT: { mcpServers: { demo: { command: "local" } } } } },
    });
    symlinkSync(project, path.join(root, "link"));
    expect(summary(loadConfig({ home, project: path.join(root, "link") }, {}))).toEqual([
      { name: "demo", scope: "local", entry: stdio("local"), overrides: [] },
    ]);
  });

  test("reads neither user nor local scope without a home folder", () => {
    const { project } = folders({
      "home/.claude.json": { mcpServers: { mine: { command: "mine" } } },
      "project/.mcp.json": {},
    });
    expect(loadConfig({ project }, {})).toEqual({ servers: [], problems: [], notes: [] });
  });

  test("accepts the bare map of servers in .mcp.json", () => {
    const { project } = folders({ "project/.mcp.json": { demo: { command: "demo" } } });
    expect(summary(loadConfig({ project }, {}))).toEqual([
      { name: "demo", scope: "project", entry: stdio("demo"), overrides: [] },
    ]);
  });

  test("notes servers in a settings file, the older tutorials' layout, and does not start them", () => {
    const { home, project } = folders({
      "project/.claude/settings.json": { mcpServers: { old: { command: "old" } } },
      "home/.claude/settings.json": { permissions: {} },
    });
    const config = loadConfig({ home, project }, {});
    expect(config.servers).toEqual([]);
    expect(config.notes).toEqual([
      `${project}/.claude/settings.json lists mcpServers, but Claude Code does not read servers from settings files: move them to .mcp.json or ~/.claude.json`,
    ]);
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
    expect(loadConfig({ project }, {}).servers.map((server) => server.entry)).toEqual([
      {
        type: "stdio",
        command: "node",
        args: ["s.js"],
        env: { A: "1" },
        cwd: path.join(project, "tools"),
        shown: "node s.js",
      },
      { type: "http", url: "https://example.com/mcp", headers: { "X-Team": "blue" }, shown: "https://example.com/mcp" },
    ]);
  });

  test("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers", () => {
    const { project } = folders({
      "project/.mcp.json": {
        mcpServers: {
          local: {
            command: "${BIN}",
            args: ["--key=${KEY}", "${MODE:-fast}", "${EMPTY:-fallback}"],
            env: { TOKEN: "${KEY}" },
          },
          remote: {
            type: "http",
            url: "https://${HOST:-example.com}/mcp",
            headers: { Authorization: "Bearer ${KEY}" },
          },
        },
      },
    });
    const env = { BIN: "/usr/bin/srv", KEY: "k1", EMPTY: "" };
    expect(loadConfig({ project }, env).servers.map((server) => server.entry)).toEqual([
      {
        type: "stdio",
        command: "/usr/bin/srv",
        args: ["--key=k1", "fast", "fallback"],
        env: { TOKEN: "k1" },
        shown: "${BIN} --key=${KEY} fast fallback",
      },
      {
        type: "http",
        url: "https://example.com/mcp",
        headers: { Authorization: "Bearer k1" },
        shown: "https://example.com/mcp",
      },
    ]);
  });

  test("shows each value taken from the environment as ${VAR}, in the command line and the URL", () => {
    const { project } = folders({
      "project/.mcp.json": {
        mcpServers: {
          local: { command: "srv", args: ["--token=${TOKEN}", "${REGION:-eu}"] },
          remote: { type: "http", url: "https://${HOST}/mcp?key=${TOKEN}", headers: { "X-Team": "${TEAM}" } },
        },
      },
    });
    const [local, remote] = loadConfig(
      { project },
      { TOKEN: "tok_secret", HOST: "mcp.example.com", TEAM: "blue" },
    ).servers.map((server) => server.entry);
    expect(local!.shown).toBe("srv --token=${TOKEN} eu");
    expect(remote).toMatchObject({
      url: "https://mcp.example.com/mcp?key=tok_secret",
      shown: "https://${HOST}/mcp?key=${TOKEN}",
    });
  });

  test("takes only the environment's own variables: a method every object has is not one", () => {
    const { project } = folders({
      "project/.mcp.json": {
        mcpServers: {
          ...Object.fromEntries(
            ["constructor", "__proto__", "toString"].map((name) => [name, { command: "x", args: [`\${${name}}`] }]),
          ),
          fallback: { command: "x", args: ["${valueOf:-plain}", "${hasOwnProperty:-}"] },
        },
      },
    });
    const config = loadConfig({ project }, { ...process.env });
    expect(config.servers.map((server) => [server.name, server.entry.type === "stdio" && server.entry.args])).toEqual([
      ["fallback", ["plain", ""]],
    ]);
    expect(config.problems).toEqual(
      ["constructor", "__proto__", "toString"].map(
        (name) => `${project}/.mcp.json: server "${name}": args[0]: \${${name}} is not set and has no default; skipped`,
      ),
    );
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
    [
      "an unset variable without a default",
      { command: "x", env: { TOKEN: "${NOT_SET_ANYWHERE}" } },
      "env.TOKEN: ${NOT_SET_ANYWHERE} is not set and has no default",
    ],
    [
      "a variable in a default",
      { command: "x", args: ["${B:-${C}}"] },
      "args[0]: the default of ${B} holds a ${...}: defaults are plain text",
    ],
  ])("%s", (_name, entry, why) => {
    const { project } = folders({ "project/.mcp.json": { mcpServers: { bad: entry, good: { command: "good" } } } });
    const config = loadConfig({ project }, {});
    expect(config.servers.map((server) => server.name)).toEqual(["good"]);
    expect(config.problems).toEqual([`${project}/.mcp.json: server "bad": ${why}; skipped`]);
  });

  test("a file that is not JSON skips that file only", () => {
    const { home, project } = folders({
      "home/.claude.json": "{ not json",
      "project/.mcp.json": { good: { command: "good" } },
    });
    const config = loadConfig({ home, project }, {});
    expect(config.servers.map((server) => server.name)).toEqual(["good"]);
    expect(config.problems).toEqual([
      expect.stringMatching(new RegExp(`^${home}/\\.claude\\.json: not valid JSON \\(.+\\); its servers are skipped$`)),
    ]);
  });

  test("a url that is not http names the variable it came from, not the value", () => {
    const { project } = folders({
      "project/.mcp.json": { mcpServers: { url: { type: "http", url: "${WHERE}/mcp" } } },
    });
    expect(loadConfig({ project }, { WHERE: "ftp://tok_where" }).problems).toEqual([
      `${project}/.mcp.json: server "url": url: not an http or https URL: \${WHERE}/mcp; skipped`,
    ]);
  });

  test("a folder where a file should be is called a folder, not bad JSON", () => {
    const { home, project } = folders({ "home/.claude.json/inside": "", "project/.mcp.json/inside": "" });
    expect(loadConfig({ home, project }, {}).problems).toEqual([
      `${home}/.claude.json: is a folder, not read; its servers are skipped`,
      `${project}/.mcp.json: is a folder, not read; its servers are skipped`,
    ]);
  });

  test("mcpServers that is not an object, and a file that is not an object", () => {
    const { home, project } = folders({ "home/.claude.json": { mcpServers: ["demo"] }, "project/.mcp.json": "[]" });
    expect(loadConfig({ home, project }, {}).problems).toEqual([
      `${home}/.claude.json: mcpServers: expected an object of servers; skipped`,
      `${project}/.mcp.json: expected an object; its servers are skipped`,
    ]);
  });

  test("mcpServers that is not an object in the local scope names the project entry it sits in", () => {
    const { home, project } = folders({ "home/.claude.json": { projects: { PROJECT: { mcpServers: "demo" } } } });
    expect(loadConfig({ home, project }, {}).problems).toEqual([
      `${home}/.claude.json: projects[${JSON.stringify(project)}].mcpServers: expected an object of servers; skipped`,
    ]);
  });

  test("a broken entry in a higher scope is skipped and still hides the lower scope's entry", () => {
    const { home, project } = folders({
      "home/.claude.json": { mcpServers: { demo: { command: "user-demo" } } },
      "project/.mcp.json": { mcpServers: { demo: { args: [] } } },
    });
    const config = loadConfig({ home, project }, {});
    expect(config.servers).toEqual([]);
    expect(config.problems).toEqual([`${project}/.mcp.json: server "demo": command: missing; skipped`]);
  });

  test("treats __proto__ and constructor as server names like any other", () => {
    const { project } = folders({
      "project/.mcp.json": '{"mcpServers":{"__proto__":{"command":"a"},"constructor":{"command":"b"}}}',
    });
    expect(loadConfig({ project }, {}).servers.map((server) => server.name)).toEqual(["__proto__", "constructor"]);
  });
});
