// list-servers.ts as a user runs it: a process given folders by flag, judged by its stdout, stderr and exit code.
// HOME points at a folder full of servers in every run, to prove that only --home is ever read.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";

const root = realpathSync(mkdtempSync(path.join(tmpdir(), "learn-mcp-list-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const [home, decoy, project] = ["home", "decoy-home", "project"].map((name) => path.join(root, name));
for (const folder of [home, decoy, project]) mkdirSync(folder);
const SECRET = "s3cret-value";
writeFileSync(path.join(decoy, ".claude.json"), JSON.stringify({ mcpServers: { "from-HOME": { command: "nope" } } }));
writeFileSync(
  path.join(home, ".claude.json"),
  JSON.stringify({ mcpServers: { mine: { command: "mine", env: { TOKEN: SECRET } } } }),
);
writeFileSync(
  path.join(project, ".mcp.json"),
  JSON.stringify({
    mcpServers: {
      remote: { type: "http", url: "https://example.com/mcp", headers: { Authorization: `Bearer ${SECRET}` } },
      broken: { args: [] },
    },
  }),
);

function listServers(...args: string[]) {
  return listWith({}, ...args);
}

function listWith(vars: NodeJS.ProcessEnv, ...args: string[]) {
  const program = fileURLToPath(new URL("./list-servers.ts", import.meta.url));
  const env = { ...process.env, HOME: decoy, ...vars };
  const run = spawnSync(process.execPath, ["--import", import.meta.resolve("tsx"), program, ...args], {
    env,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test("reads the home folder named by --home, never the one in HOME, and shows no header or env value", () => {
  const { status, stdout, stderr } = listServers("--project", project, "--home", home);
  expect(stdout).toBe(
    [
      "remote   project  http   https://example.com/mcp (remote servers are not supported yet; skipped)",
      "mine     user     stdio  mine  env: TOKEN",
      "",
    ].join("\n"),
  );
  expect(stderr).toBe(`problem: ${project}/.mcp.json: server "broken": command: missing; skipped\n`);
  expect(status).toBe(0);
  expect(stdout + stderr).not.toContain(SECRET);
});

test("without --home reads the project only, and says so", () => {
  const { status, stdout } = listServers("--project", project);
  expect(stdout).toBe(
    "(no --home: the user and local scopes are not read)\nremote   project  http   https://example.com/mcp (remote servers are not supported yet; skipped)\n",
  );
  expect(status).toBe(0);
});

// Named by what is wrong, not by the arguments: a temporary path in a test's name would change it at every run.
test.each([
  [
    "a --home that does not exist",
    ["--home", path.join(root, "nowhere")],
    `--home ${path.join(root, "nowhere")} is not a folder`,
  ],
  [
    "a --project that is a file",
    ["--project", path.join(project, ".mcp.json")],
    `--project ${path.join(project, ".mcp.json")} is not a folder`,
  ],
  ["an unknown option", ["--verbose"], "Unknown option '--verbose'"],
])("exits 64 on bad usage: %s", (_, args, message) => {
  const { status, stdout, stderr } = listServers(...args);
  expect({ status, stdout }).toEqual({ status: 64, stdout: "" });
  expect(stderr).toContain(`error: ${message}`);
  expect(stderr).toContain("usage: list-servers.ts [--project DIR] [--home DIR]");
});

test("shows each value taken from the environment as ${VAR}, never the value", () => {
  const folder = path.join(root, "vars");
  mkdirSync(folder);
  const servers = {
    search: { command: "${SEARCH_BIN:-search}", args: ["--token=${SEARCH_TOKEN}"] },
    docs: { type: "http", url: "https://${DOCS_HOST}/mcp?key=${SEARCH_TOKEN}" },
  };
  writeFileSync(path.join(folder, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  const { status, stdout } = listWith({ SEARCH_TOKEN: SECRET, DOCS_HOST: "docs.example.com" }, "--project", folder);
  expect(stdout.split("\n").slice(1)).toEqual([
    "search   project  stdio  search --token=${SEARCH_TOKEN}",
    "docs     project  http   https://${DOCS_HOST}/mcp?key=${SEARCH_TOKEN} (remote servers are not supported yet; skipped)",
    "",
  ]);
  expect(status).toBe(0);
});

test("refuses a .mcp.json that is a named pipe instead of waiting for a writer", () => {
  const folder = path.join(root, "fifo");
  mkdirSync(folder);
  execFileSync("mkfifo", [path.join(folder, ".mcp.json")]); // test-only: mkfifo is on Linux and macOS
  const { status, stdout, stderr } = listWith({}, "--project", folder);
  expect({ status, stdout, stderr }).toEqual({
    status: 0,
    stdout: "(no --home: the user and local scopes are not read)\n(no servers configured)\n",
    stderr: `problem: ${folder}/.mcp.json: is not a regular file (a named pipe, a socket or a device), not read; its servers are skipped\n`,
  });
});
