// The shown-command checks on small planted trees, and on this repository, which must pass them.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { checkPnpmVersion, checkRunnerFlags, flagProblems, RUNNER_FLAGS } from "./shown-commands.mjs";

const roots = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function plant(files) {
  const root = mkdtempSync(path.join(os.tmpdir(), "shown-commands-test-"));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const run = (check, root) => {
  const errors = [];
  check(root, errors);
  return errors;
};

// Every flag the runner takes but --help, one table row each, as README.md lays them out.
const table = (flags) => [
  "| command | what it does |",
  "|---|---|",
  ...flags.map((flag) => `| \`node steps/run.mjs N ${flag}\` | does it |`),
];
const readme = (flags) => ["# Title", "", "## Use the runner", "", ...table(flags), "", "After the table."].join("\n");
const shownFlags = () => [...RUNNER_FLAGS].filter((flag) => flag !== "--help" && flag !== "-h");

describe("checkPnpmVersion", () => {
  const manager = JSON.stringify({ packageManager: "pnpm@10.34.9+sha512.abc" });

  it("passes every pnpm@ that names packageManager's version, at the end of a sentence too", () => {
    const root = plant({
      "package.json": manager,
      "README.md": "Run `npx -y pnpm@10.34.9 install`.\nOr pnpm@10.34.9.\n",
      ".ci/run": "npx -y pnpm@10.34.9 install && npx -y pnpm@10.34.9 test\n",
    });
    expect(run(checkPnpmVersion, root)).toEqual([]);
  });

  it("fails each line that shows another version, in the README, CONTRIBUTING, .ci/run and a chapter", () => {
    const root = plant({
      "package.json": manager,
      "README.md": "intro\nnpx -y pnpm@10.34.9 install && npx -y pnpm@10.0.0 test\n",
      "CONTRIBUTING.md": "`npx -y pnpm@9.1.0` on a machine without pnpm.\n",
      ".ci/run": "npx -y pnpm@10.34.8 install\n",
      "docs/01-echo.md": "npx -y pnpm@10.34 bench\n",
    });
    const why = "package.json's packageManager is pnpm@10.34.9+sha512.abc";
    expect(run(checkPnpmVersion, root)).toEqual([
      `README.md:2: shows pnpm@10.0.0; ${why}`,
      `CONTRIBUTING.md:1: shows pnpm@9.1.0; ${why}`,
      `.ci/run:1: shows pnpm@10.34.8; ${why}`,
      `docs/01-echo.md:1: shows pnpm@10.34; ${why}`,
    ]);
  });

  it("fails a packageManager that names no pnpm version", () => {
    const root = plant({ "package.json": JSON.stringify({ packageManager: "yarn@4.0.0" }) });
    expect(run(checkPnpmVersion, root)).toEqual([
      "package.json: packageManager must be pnpm@<version>, not yarn@4.0.0",
    ]);
  });
});

describe("checkRunnerFlags", () => {
  it("passes a README table that shows every flag the runner takes; Ctrl-C or NN-slug name no flag", () => {
    const text = readme([...shownFlags(), "until Ctrl-C, in exercises/NN-slug/ (git-ignored)"]);
    expect(run(checkRunnerFlags, plant({ "README.md": text }))).toEqual([]);
  });

  it("fails a table that misses a flag or shows one the runner does not take", () => {
    const flags = [...shownFlags().filter((flag) => flag !== "--progress"), "--bogus"];
    const where = 'README.md: the table under "## Use the runner"';
    expect(run(checkRunnerFlags, plant({ "README.md": readme(flags) }))).toEqual([
      `${where}: --progress is missing`,
      `${where}: --bogus is not a flag the runner takes`,
    ]);
  });

  it("reads only the table: a flag after it is not counted", () => {
    const text = readme(shownFlags().filter((flag) => flag !== "--wire")) + "\nSee `--wire`.\n";
    expect(run(checkRunnerFlags, plant({ "README.md": text }))).toEqual([
      'README.md: the table under "## Use the runner": --wire is missing',
    ]);
  });

  it("fails a README without the table", () => {
    expect(run(checkRunnerFlags, plant({ "README.md": "# Title\n" }))).toEqual([
      'README.md: no table of runner commands under "## Use the runner"',
    ]);
  });

  it("compares what any text shows with the flags, --help and -h aside", () => {
    const shown = new Set(["--diff", "--bogus"]);
    expect(flagProblems("text", shown, new Set(["--diff", "--wire", "--help", "-h"]))).toEqual([
      "text: --wire is missing",
      "text: --bogus is not a flag the runner takes",
    ]);
  });
});

describe("this repository", () => {
  it("shows packageManager's pnpm version and the runner's flags wherever it shows them", () => {
    expect(run(checkPnpmVersion, REPO_ROOT)).toEqual([]);
    expect(run(checkRunnerFlags, REPO_ROOT)).toEqual([]);
  });
});

describe("check-steps.mjs", () => {
  it("runs both checks: a planted version mismatch fails it, naming the line", () => {
    const step = {
      name: "@learn-mcp/01-echo",
      scripts: { start: "tsx src/main.ts", test: "vitest run", typecheck: "tsc" },
    };
    const root = plant({
      "package.json": JSON.stringify({ packageManager: "pnpm@10.34.9" }),
      "README.md": "npx -y pnpm@1.0.0 install\n",
      "steps/01-echo/package.json": JSON.stringify(step),
      "steps/01-echo/lesson.json": JSON.stringify({ title: "echo", part: "by hand over stdio", changes: [] }),
      "steps/01-echo/tsconfig.json": "{}\n",
      "steps/01-echo/src/main.ts": 'console.log("echo");\n',
      "docs/01-echo.md": "# echo\n",
    });
    const check = path.join(import.meta.dirname, "check-steps.mjs");
    const { status, stdout } = spawnSync(process.execPath, [check, "--root", root], { encoding: "utf8" });
    expect(stdout).toContain("error: README.md:1: shows pnpm@1.0.0; package.json's packageManager is pnpm@10.34.9\n");
    expect(stdout).toContain('error: README.md: no table of runner commands under "## Use the runner"\n');
    expect(status).toBe(1);
  });
});
