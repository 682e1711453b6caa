// Tests for steps/run.mjs, run as a learner runs it: a separate `node` process, judged by its output and exit status.
// Each test checks output a broken runner would get wrong: exact text where the output is meant to be pasted into docs.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, test, vi } from "vitest";
import { isAlive, NO_PROC } from "./shared/processes.mjs";
import { REPO_ROOT as repoRoot } from "./shared/repo.mjs";
import { FIXTURES } from "./test/fixtures.mjs";
import { ESC, fixtureSteps, realSteps, removeFixtures, run, start, step01 } from "./test/helpers.mjs";
import { WIRE, WIRE_EXPECTED } from "./test/wire-fixture.mjs";

afterAll(removeFixtures);
// Every test starts the runner as a separate Node process; on a loaded machine that alone can take seconds.
vi.setConfig({ testTimeout: 30_000 });

describe("--list and bad use", () => {
  test("--list and no arguments show one line per step, 01 with its title, under a heading for each part", async () => {
    const { title, part } = JSON.parse(readFileSync(join(repoRoot, "steps", step01, "lesson.json"), "utf8"));
    const listed = await run(["--list"]);
    expect(listed.status).toBe(0);
    const lines = listed.stdout.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual([
      expect.stringMatching(`^Part 1, ${part} \\(steps 01-\\d\\d\\)$`),
      `  01  ${title}`,
    ]);
    expect(lines.filter((line) => /^  \d\d  /.test(line))).toHaveLength(realSteps.length);
    expect(lines.filter((line) => line.startsWith("Part "))).toHaveLength(4);
    expect((await run([])).stdout).toBe(listed.stdout);
  });

  test("an unknown step fails and names the valid ones", async () => {
    const result = await run(["99"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown step 99");
    expect(result.stderr).toContain(`Valid steps: ${realSteps.map((name) => name.slice(0, 2)).join(", ")}.`);
    expect((await run(["abc"])).status).toBe(2);
  });

  test("unknown options and options without a step are usage errors", async () => {
    const unknown = await run(["1", "--frobnicate"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option --frobnicate");
    const noStep = await run(["--diff"]);
    expect(noStep.status).toBe(2);
    expect(noStep.stderr).toContain("--diff needs a step number");
    expect((await run(["1", "2"])).status).toBe(2);
  });
});

describe("running a demo", () => {
  test("`1` runs step 01's demo and passes on its exit status", async () => {
    const result = await run(["1"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("child -> parent: CAFÉ CRÈME");
    expect(result.stdout).toContain("child exited with code 0");
  }, 30_000);

  test("a demo's own exit status becomes the runner's", async () => {
    const stepsDir = fixtureSteps({ "01-fails": FIXTURES.fails });
    const result = await run(["01"], { stepsDir });
    expect(result.stdout).toBe("about to fail\n");
    expect(result.status).toBe(3);
  }, 30_000);

  test("a reader that stops early (| head) ends the demo quietly", async () => {
    const stepsDir = fixtureSteps({ "01-chatty": FIXTURES.chatty });
    const child = start(["1"], { stepsDir });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdout.once("data", () => child.stdout.destroy());
    const status = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(status).toBe(0);
  }, 30_000);
});

describe("flags a step declares", () => {
  // Step 02 declares --live in its lesson.json; its demo prints the arguments it was given.
  const printsArgs = "console.log(JSON.stringify(process.argv.slice(2)));\n";
  const stepsDir = () =>
    fixtureSteps({
      "01-plain": { "lesson.json": '{"title":"plain"}', "src/main.ts": printsArgs },
      "02-live": { "lesson.json": '{"title":"live","flags":["--live"]}', "src/main.ts": printsArgs },
    });

  test("--live and its prompt reach the demo of a step that declares it", async () => {
    const dir = stepsDir();
    expect(await run(["2", "--live", "What is 2 + 40?"], { stepsDir: dir })).toEqual({
      status: 0,
      stdout: '["--live","What is 2 + 40?"]\n',
      stderr: "",
    });
    expect((await run(["2", "--live"], { stepsDir: dir })).stdout).toBe('["--live"]\n');
  });

  test("--live on a step without it, a prompt without --live, and --live with --diff: usage errors", async () => {
    const dir = stepsDir();
    const notDeclared = await run(["1", "--live"], { stepsDir: dir });
    expect([notDeclared.status, notDeclared.stdout, notDeclared.stderr.split("\n")[0]]).toEqual([
      2,
      "",
      "Step 01 does not take --live; steps that do: 02.",
    ]);
    expect((await run(["2", "a prompt"], { stepsDir: dir })).stderr).toContain(
      "Expected one step number, got: 2 a prompt.",
    );
    expect((await run(["2", "--live", "--diff"], { stepsDir: dir })).stderr).toContain(
      "--live runs the demo; it cannot be combined with --diff or --stat.",
    );
  });
});

describe("--diff and --stat", () => {
  const framing = readFileSync(join(repoRoot, "steps", step01, "src", "framing.ts"), "utf8");

  test("step 1 is shown whole, as new files, without colour when piped", async () => {
    const result = await run(["1", "--diff"]);
    expect(result.status).toBe(0);
    const header = `--- (new file)\n+++ steps/${step01}/src/framing.ts\n@@ -0,0 +1,${framing.split("\n").length - 1} @@\n`;
    const added = framing
      .trimEnd()
      .split("\n")
      .map((line) => `+${line}`)
      .join("\n");
    expect(result.stdout).toContain(header + added + "\n");
    expect(result.stdout).not.toContain(ESC);
    expect((await run(["01", "--diff"])).stdout).toBe(result.stdout);
  });

  test("FORCE_COLOR colours a piped diff, and FORCE_COLOR=0 or NO_COLOR keep it plain", async () => {
    const forced = await run(["1", "--diff"], { env: { FORCE_COLOR: "1" } });
    expect(forced.stdout).toContain(`${ESC}32m+export class LineDecoder {${ESC}0m`);
    expect(forced.stdout).toContain(`${ESC}36m@@ -0,0 +1,`);
    expect((await run(["1", "--diff"], { env: { FORCE_COLOR: "0" } })).stdout).not.toContain(ESC);
    expect((await run(["1", "--diff"], { env: { NO_COLOR: "1" } })).stdout).not.toContain(ESC);
  });

  test("--stat counts lines per file and in total, alone or with --diff", async () => {
    const result = await run(["1", "--stat"]);
    expect(result.status).toBe(0);
    const framingLines = framing.split("\n").length - 1;
    expect(result.stdout).toMatch(new RegExp(`^ src/framing\\.ts +\\| +\\+${framingLines} +-0  \\(new\\)$`, "m"));
    expect(result.stdout).toMatch(/^ \d+ files changed, \d+ insertions\(\+\), 0 deletions\(-\)\n$/m);
    expect((await run(["1", "--diff", "--stat"])).stdout).toBe(result.stdout);
  });

  test("a fixture pair shows source, then tests; a removed file is one line; the package name is hidden", async () => {
    const stepsDir = fixtureSteps(FIXTURES.diffPair);
    const result = await run(["2", "--diff"], { stepsDir });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(FIXTURES.diffPairExpected);
    expect((await run(["2", "--stat"], { stepsDir })).stdout).toBe(FIXTURES.diffPairStat);
    expect((await run(["2", "--diff", "--no-tests"], { stepsDir })).stdout).toBe(FIXTURES.diffPairSource);
    expect((await run(["2", "--no-tests"], { stepsDir })).status).toBe(2);
  });

  test("package.json is shown when more than its name changed; lesson.json never is", async () => {
    const stepsDir = fixtureSteps(FIXTURES.diffPair);
    const result = await run(["3", "--diff"], { stepsDir });
    expect(result.stdout).toBe(FIXTURES.describedExpected);
  });
});

describe("--wire", () => {
  test("prints every JSON-RPC line in order, telling processes apart and shortening long strings", async () => {
    const stepsDir = fixtureSteps({ "01-wire": WIRE });
    const tmp = join(stepsDir, "tmp");
    mkdirSync(tmp);
    const result = await run(["1", "--wire"], { stepsDir, env: { TMPDIR: tmp } });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(WIRE_EXPECTED);
    expect(result.status).toBe(0);
    // The shared log lives in a temporary folder that the runner removes.
    expect(readdirSync(tmp).filter((name) => name.startsWith("learn-mcp-wire-"))).toEqual([]);
  }, 30_000);

  test("--only and --first keep whole requests with their answers; nothing matched is said on stderr", async () => {
    const stepsDir = fixtureSteps({ "01-wire": WIRE });
    const cli = await run(["1", "--wire", "--only", "from cli"], { stepsDir });
    expect(cli.stdout).toBe(
      '-> [3 cli.ts/1 echo.ts] {"jsonrpc":"2.0","id":7,"method":"echo","params":{"text":"from cli"}}\n' +
        '<- [3 cli.ts/1 echo.ts] {"jsonrpc":"2.0","id":7,"result":{"text":"from cli"}}\n' +
        '<- [3 cli.ts] (not JSON-RPC) "cli: echo answered from cli"\n',
    );
    const first = await run(["1", "--wire", "--only", "2 echo.ts", "--first", "1", "--cut", "40"], { stepsDir });
    expect(first.stdout).toBe(
      '-> [2 echo.ts] {"jsonrpc":"2.0","id":2," …\n<- [2 echo.ts] {"jsonrpc":"2.0","id":2," …\n',
    );
    const none = await run(["1", "--wire", "--only", "resources/read"], { stepsDir });
    expect([none.status, none.stdout]).toEqual([0, ""]);
    expect(none.stderr).toBe('(--wire --only "resources/read": nothing in the wire log matched.)\n');
  }, 30_000);

  test("the filters go with --wire only, and take a value", async () => {
    const alone = await run(["1", "--only", "x"]);
    expect([alone.status, alone.stderr.split("\n")[0]]).toEqual([
      2,
      "--only, --from, --first and --cut go with --wire.",
    ]);
    const empty = await run(["1", "--wire", "--first"]);
    expect([empty.status, empty.stderr.split("\n")[0]]).toEqual([2, "--first needs a value."]);
  });

  test("step 01 has no JSON-RPC: its lines are shown marked, and a note says so", async () => {
    const result = await run(["1", "--wire"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("child -> parent: CAFÉ CRÈME");
    expect(result.stdout).toContain('-> [1 server.ts] (not JSON-RPC) "café crème"');
    expect(result.stdout).toContain('<- [1 server.ts] (not JSON-RPC) "CAFÉ CRÈME"');
    // The demo's line over 16 MiB is counted, not kept, and not taken for a message.
    expect(result.stdout).toContain(
      "-> [1 server.ts] (not shown) a line of 16,777,217 bytes, over the 16,777,216 the tap keeps",
    );
    expect(result.stdout.trimEnd().split("\n").at(-1)).toBe("(--wire: step 01 sent no JSON-RPC message over stdio.)");
  });

  test("removes the log of a runner that was killed, and keeps one whose runner lives", async () => {
    const stepsDir = fixtureSteps({ "01-fails": FIXTURES.fails });
    const tmp = join(stepsDir, "tmp");
    mkdirSync(join(tmp, "learn-mcp-wire-999999999-dead"), { recursive: true });
    mkdirSync(join(tmp, `learn-mcp-wire-${process.pid}-alive`));
    await run(["1", "--wire"], { stepsDir, env: { TMPDIR: tmp } });
    const logs = readdirSync(tmp).filter((name) => name.startsWith("learn-mcp-wire-"));
    expect(logs).toEqual([`learn-mcp-wire-${process.pid}-alive`]);
  });
});

// Each of the first two also runs with the process tree read from ps, as on macOS, forced by LEARN_MCP_NO_PROC=1.
const READERS = [
  ["/proc", {}],
  ["ps", { [NO_PROC]: "1" }],
];

describe("stopping a demo", () => {
  test.each(READERS)(
    "SIGINT stops the demo and its detached descendants, and the runner exits 130 (%s)",
    async (_, env) => {
      const stepsDir = fixtureSteps({ "01-hang": FIXTURES.hang });
      const child = start(["1"], { stepsDir, env });
      let stdout = "";
      const pids = await new Promise((resolve, reject) => {
        child.stdout.on("data", (chunk) => {
          stdout += chunk;
          const match = /PIDS (\d+) (\d+) (\d+)/.exec(stdout);
          if (match) resolve(match.slice(1).map(Number));
        });
        child.on("exit", () => reject(new Error(`runner exited early: ${stdout}`)));
      });
      try {
        const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
        child.kill("SIGINT");
        expect(await exited).toBe(130);
        const deadline = Date.now() + 5000;
        while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
        expect(pids.filter(isAlive)).toEqual([]);
      } finally {
        for (const pid of pids.filter(isAlive)) process.kill(pid, "SIGKILL");
      }
    },
    30_000,
  );

  test.each(READERS)(
    "a demo that fails leaves no process behind: the runner stops its group and says so (%s)",
    async (_, env) => {
      const stepsDir = fixtureSteps({ "01-crash": FIXTURES.crash });
      const result = await run(["1"], { stepsDir, env });
      const server = Number(/SERVER (\d+)/.exec(result.stdout)?.[1]);
      try {
        expect(result.status).toBe(1);
        expect(result.stderr).toContain("Error: the demo failed");
        expect(result.stderr).toContain(
          "The demo of step 01 exited and left processes running; the runner stopped them.",
        );
        // Stopped, it may still be a zombie for a moment: init reaps an orphan slowly on some machines.
        const deadline = Date.now() + 5000;
        while (isAlive(server) && Date.now() < deadline) await sleep(50);
        expect(isAlive(server)).toBe(false);
      } finally {
        if (isAlive(server)) process.kill(server, "SIGKILL");
      }
    },
    30_000,
  );

  test.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ])("%s stops the demo and its children, removes its temporary folder, and exits %i", async (signal, status) => {
    const stepsDir = fixtureSteps({ "01-tidy": FIXTURES.tidy });
    const tmp = join(stepsDir, "tmp");
    mkdirSync(tmp);
    const child = start(["1"], { stepsDir, env: { TMPDIR: tmp } });
    const pids = await new Promise((resolve, reject) => {
      let stdout = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        const match = /READY (\d+) (\d+)/.exec(stdout);
        if (match) resolve(match.slice(1).map(Number));
      });
      child.on("exit", () => reject(new Error(`runner exited early: ${stdout}`)));
    });
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill(signal);
    expect(await exited).toBe(status);
    const deadline = Date.now() + 5000;
    while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(readdirSync(tmp).filter((name) => name.startsWith("tidy-"))).toEqual([]);
  });

  test("a second signal while the demo runs its exit handlers does not cut them short", async () => {
    const stepsDir = fixtureSteps({ "01-slow-tidy": FIXTURES.slowTidy });
    const tmp = join(stepsDir, "tmp");
    mkdirSync(tmp);
    const child = start(["1"], { stepsDir, env: { TMPDIR: tmp } });
    const exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
    let stdout = "";
    // SIGTERM once the demo runs, and again once its exit handler has started.
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const demo = Number(/READY (\d+)/.exec(stdout)?.[1]);
      if (stdout.endsWith(`READY ${demo}\n`)) process.kill(demo, "SIGTERM");
      if (stdout.endsWith("EXITING\n")) process.kill(demo, "SIGTERM");
    });
    expect(await exited).toBe(143);
    expect(stdout).toContain("EXITING\n");
    expect(readdirSync(tmp).filter((name) => name.startsWith("tidy-"))).toEqual([]);
  });
});
