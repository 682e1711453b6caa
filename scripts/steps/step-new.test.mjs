// step:new on a small synthetic repository (--root): the inserted copy, every later step renumbered wherever it is
// named, and check:steps passing on the result.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RUNNER_FLAGS } from "../checks/shown-commands.mjs";

// check:steps wants README's table of runner commands, every flag in it.
const RUNNER = `\n## Use the runner\n\n| command | what it does |\n|---|---|\n${[...RUNNER_FLAGS]
  .map((flag) => `| \`node steps/run.mjs N ${flag}\` | does it |\n`)
  .join("")}`;

const STEP_NEW = path.join(import.meta.dirname, "step-new.mjs");
const roots = [];

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}
const read = (root, rel) => readFileSync(path.join(root, rel), "utf8");

const SCRIPTS = { start: "tsx src/main.ts", test: "vitest run", typecheck: "tsc --noEmit -p tsconfig.json" };
const FOLDERS = ["01-echo", "02-sum", "03-tools"];
const chapter = (folder, i) =>
  [
    `# ${folder.slice(0, 2)} · ${folder.slice(3)}`,
    "",
    i > 0 ? `After [chapter ${FOLDERS[i - 1].slice(0, 2)}](${FOLDERS[i - 1]}.md).` : "The first.",
    "",
    `<!-- gen stat ${i + 1} -->`,
    "<!-- /gen -->",
    "",
    `<!-- gen code steps/${folder}/src/main.ts -->`,
    "<!-- /gen -->",
    "",
    `Run \`node steps/run.mjs ${i + 1} --diff\`; chapters [02](02-sum.md) to [03](03-tools.md) build on it.`,
    ...(FOLDERS[i + 1] ? [`- Next: [chapter ${FOLDERS[i + 1].slice(0, 2)}](${FOLDERS[i + 1]}.md).`] : []),
    "",
  ].join("\n");
const importer = (folder) => `  steps/${folder}:\n    devDependencies:\n      tsx:\n        specifier: 'catalog:'\n`;

// Three steps, each changing main.ts; step 03 adds tools.ts. Roles, README and the lockfile name the folders.
function makeRoot() {
  const root = mkdtempSync(path.join(os.tmpdir(), "step-new-test-"));
  roots.push(root);
  FOLDERS.forEach((folder, i) => {
    const changes = i === 0 ? [] : i === 1 ? ["src/main.ts"] : ["src/main.ts", "src/tools.ts"];
    write(
      root,
      `steps/${folder}/package.json`,
      JSON.stringify({ name: `@learn-mcp/${folder}`, scripts: SCRIPTS }, null, 2),
    );
    write(root, `steps/${folder}/lesson.json`, JSON.stringify({ title: folder, part: "by hand over stdio", changes }));
    write(root, `steps/${folder}/tsconfig.json`, '{ "include": ["src"] }\n');
    write(root, `steps/${folder}/src/main.ts`, `console.log("${folder.slice(3)}");\n`);
    write(root, `docs/${folder}.md`, chapter(folder, i));
  });
  write(root, "steps/03-tools/src/main.ts", 'import { tools } from "./tools.ts";\nconsole.log(tools);\n');
  write(root, "steps/03-tools/src/tools.ts", "export const tools = [];\n");
  write(
    root,
    "steps/roles.json",
    '{\n  "sum server": "02-sum/src/main.ts",\n  "echo server": "01-echo/src/main.ts"\n}\n',
  );
  write(
    root,
    "README.md",
    `Start with \`node steps/run.mjs 2 --exercise\` (exercises/02-sum/), then step 03.\n${RUNNER}`,
  );
  write(root, "pnpm-lock.yaml", `importers:\n\n${FOLDERS.map(importer).join("\n")}\npackages:\n`);
  return root;
}

function stepNew(root, ...args) {
  const result = spawnSync(process.execPath, [STEP_NEW, ...args, "--root", root], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("step:new", { timeout: 30_000 }, () => {
  it("inserts a copy of step N and renumbers every later step wherever it is named", () => {
    const root = makeRoot();
    const { status, output } = stepNew(root, "framing", "--after", "1");
    expect(output).toContain("check-steps: 4 steps, 0 errors");
    expect(output).toContain("renumbered 02-sum -> 03-sum");
    expect(output).toContain("pnpm check:exercises  (once the lesson is written: re-checks step 02 and step 03)");
    expect(status).toBe(0);
    for (const folder of ["01-echo", "02-framing", "03-sum", "04-tools"]) {
      expect(JSON.parse(read(root, `steps/${folder}/package.json`)).name).toBe(`@learn-mcp/${folder}`);
      expect(existsSync(path.join(root, `docs/${folder}.md`)), folder).toBe(true);
    }
    expect(existsSync(path.join(root, "steps/02-sum"))).toBe(false);
    expect(read(root, "steps/02-framing/src/main.ts")).toBe(read(root, "steps/01-echo/src/main.ts"));
    expect(JSON.parse(read(root, "steps/02-framing/lesson.json"))).toEqual({
      title: "Framing",
      part: "by hand over stdio",
      changes: [],
    });
    expect(JSON.parse(read(root, "steps/roles.json"))).toEqual({
      "sum server": "03-sum/src/main.ts",
      "echo server": "01-echo/src/main.ts",
    });
    expect(read(root, "README.md")).toBe(
      `Start with \`node steps/run.mjs 3 --exercise\` (exercises/03-sum/), then step 04.\n${RUNNER}`,
    );
    expect(read(root, "pnpm-lock.yaml")).toBe(
      `importers:\n\n${["01-echo", "02-framing", "03-sum", "04-tools"].map(importer).join("\n")}\npackages:\n`,
    );
  });

  it("renumbers the chapters' titles, links, markers and commands together", () => {
    const root = makeRoot();
    expect(stepNew(root, "framing", "--after", "1").status).toBe(0);
    expect(read(root, "docs/01-echo.md")).toContain("- Next: [chapter 03](03-sum.md).");
    expect(read(root, "docs/04-tools.md")).toBe(
      [
        "# 04 · tools",
        "",
        "After [chapter 03](03-sum.md).",
        "",
        "<!-- gen stat 4 -->",
        "<!-- /gen -->",
        "",
        "<!-- gen code steps/04-tools/src/main.ts -->",
        "<!-- /gen -->",
        "",
        "Run `node steps/run.mjs 4 --diff`; chapters [03](03-sum.md) to [04](04-tools.md) build on it.",
        "",
      ].join("\n"),
    );
    const skeleton = read(root, "docs/02-framing.md");
    expect(skeleton).toMatch(/^# 02 · Framing\n\nThis step starts as a copy of \[chapter 01\]\(01-echo.md\)/);
    for (const kind of ["stat", "diff", "exercise"])
      expect(skeleton).toContain(`<!-- gen ${kind} 2 -->\n<!-- /gen -->`);
    expect(skeleton).toMatch(/## Build it yourself[\s\S]*## Recap[\s\S]*- Next: \[chapter 03\]\(03-sum.md\)\.\n$/);
  });

  it("inserts after the last step with nothing to renumber and no next chapter to link", () => {
    const root = makeRoot();
    const { status, output } = stepNew(root, "more-tools", "--after", "3");
    expect(output).toContain("check-steps: 4 steps, 0 errors");
    expect(output).not.toMatch(/^ {2}renumbered|renumbered chapters/m);
    expect(status).toBe(0);
    expect(JSON.parse(read(root, "steps/04-more-tools/lesson.json")).title).toBe("More tools");
    expect(read(root, "docs/04-more-tools.md")).not.toContain("Next:");
    expect(read(root, "docs/03-tools.md")).toBe(chapter("03-tools", 2));
  });

  it("refuses a slug in use, a missing step and a bad slug, writing nothing", () => {
    const root = makeRoot();
    for (const [args, message] of [
      [["sum", "--after", "1"], "a step is already named sum"],
      [["framing", "--after", "7"], "there is no step 7"],
      [["Framing", "--after", "1"], '"Framing" is no slug'],
      [["framing"], "usage: pnpm step:new"],
    ]) {
      const { status, output } = stepNew(root, ...args);
      expect(output, args.join(" ")).toContain(message);
      expect(status).toBe(1);
    }
    expect(existsSync(path.join(root, "steps/02-sum"))).toBe(true);
    expect(existsSync(path.join(root, "steps/02-framing"))).toBe(false);
  });
});
