// docs.mjs end to end on throwaway repositories (--root): drift, sync, runner blocks, the hand-written rule.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { parseDoc } from "./docblocks.mjs";
import { isAlive } from "../../steps/runner/shared/processes.mjs";

const DOCS = path.join(import.meta.dirname, "docs.mjs");
const roots = [];

// A throwaway repository with one source file and one chapter; the chapter starts up to date.
function makeRoot(chapter) {
  const root = mkdtempSync(path.join(os.tmpdir(), "docs-test-"));
  roots.push(root);
  mkdirSync(path.join(root, "src"));
  mkdirSync(path.join(root, "docs"));
  writeFileSync(path.join(root, "src/greet.ts"), "//#region greet\nexport const greet = () => 'hi';\n//#endregion\n");
  writeFileSync(path.join(root, "notes.json"), '{ "a": 1 }\n');
  writeFileSync(path.join(root, "docs/01-x.md"), chapter);
  return root;
}

const upToDate = [
  "# X",
  "<!-- gen code src/greet.ts#greet -->",
  "```ts",
  "export const greet = () => 'hi';",
  "```",
  "<!-- /gen -->",
  "<!-- gen file notes.json -->",
  "```json",
  '{ "a": 1 }',
  "```",
  "<!-- /gen -->",
  "",
].join("\n");

function write(root, rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

function docs(root, ...args) {
  const result = spawnSync(process.execPath, [DOCS, ...args, "--root", root], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

// These start docs.mjs several times per test; on a busy two-core machine that outlasts vitest's default 5 s.
describe("docs.mjs check and sync", { timeout: 30_000 }, () => {
  it("passes a chapter whose blocks match the code", () => {
    const { status, output } = docs(makeRoot(upToDate), "check");
    expect(output).toContain("docs: 2 blocks in 1 files, 0 commands run, 0 accepted unchanged, all up to date");
    expect(status).toBe(0);
  });

  it("reports a stale code block with a diff, and sync rewrites it", () => {
    const root = makeRoot(upToDate);
    writeFileSync(
      path.join(root, "src/greet.ts"),
      "//#region greet\nexport const greet = () => 'hello';\n//#endregion\n",
    );
    const stale = docs(root, "check");
    expect(stale.status).toBe(1);
    expect(stale.output).toContain("stale: docs/01-x.md:2 <!-- gen code src/greet.ts#greet -->");
    expect(stale.output).toContain("+export const greet = () => 'hello';");
    expect(stale.output).not.toContain("docs/01-x.md:7");

    expect(docs(root, "sync").status).toBe(0);
    expect(readFileSync(path.join(root, "docs/01-x.md"), "utf8")).toBe(upToDate.replace("'hi'", "'hello'"));
    expect(docs(root, "check").status).toBe(0);
  });

  it("reports a stale file block", () => {
    const root = makeRoot(upToDate);
    writeFileSync(path.join(root, "notes.json"), '{ "a": 2 }\n');
    const { status, output } = docs(root, "check");
    expect(status).toBe(1);
    expect(output).toContain("stale: docs/01-x.md:7 <!-- gen file notes.json -->");
  });

  it("names the doc, line and region when a region does not exist", () => {
    const root = makeRoot(upToDate.replace("#greet", "#farewell"));
    const { status, output } = docs(root, "check");
    expect(status).toBe(1);
    expect(output).toContain('docs/01-x.md:2: gen code src/greet.ts#farewell: region "farewell" not found');
  });

  it("shows a failing command's output and its exit status", () => {
    const root = makeRoot("<!-- gen exec echo out; echo err >&2; exit 3 -->\n<!-- /gen -->\n");
    expect(docs(root, "sync").status).toBe(0);
    const written = readFileSync(path.join(root, "docs/01-x.md"), "utf8");
    expect(written).toContain("```text\nout\nerr\n(exit status 3)\n```");
  });
});

describe("docs.mjs runner blocks", { timeout: 30_000 }, () => {
  // A stand-in runner: prints its arguments and a normalisable line on stdout, noise on stderr, fails for step 9.
  const runner = [
    'const args = process.argv.slice(2).join(" ");',
    "console.log(`ran ${args} in 12 ms from ${process.cwd()}`);",
    'console.error("stderr is not shown");',
    'if (args.startsWith("9")) { console.error("step 9 broke"); process.exit(1); }',
  ].join("\n");

  it("fills run, wire, diff and stat blocks from stdout, normalised, in document order", () => {
    const kinds = ["run 1", "wire 2", "diff 3", "stat 4"];
    const root = makeRoot(kinds.map((kind) => `<!-- gen ${kind} -->\n<!-- /gen -->\n`).join(""));
    write(root, "steps/run.mjs", runner);
    expect(docs(root, "sync").status).toBe(0);
    const written = readFileSync(path.join(root, "docs/01-x.md"), "utf8");
    expect(written).toBe(
      [
        "<!-- gen run 1 -->\n```text\nran 1 in <n> ms from .\n```\n<!-- /gen -->",
        "<!-- gen wire 2 -->\n```text\nran 2 --wire in <n> ms from .\n```\n<!-- /gen -->",
        "<!-- gen diff 3 -->\n```diff\nran 3 --diff in <n> ms from .\n```\n<!-- /gen -->",
        "<!-- gen stat 4 -->\n```text\nran 4 --diff --stat in <n> ms from .\n```\n<!-- /gen -->",
        "",
      ].join("\n"),
    );
  });

  it("fails a run block whose demo exits non-zero, showing its stderr", () => {
    const root = makeRoot("<!-- gen run 9 -->\n<!-- /gen -->\n");
    write(root, "steps/run.mjs", runner);
    const { status, output } = docs(root, "check");
    expect(status).toBe(1);
    expect(output).toContain("docs/01-x.md:1: gen run 9: `node steps/run.mjs 9` exited with status 1");
    expect(output).toContain("step 9 broke");
  });

  it("passes a wire block's filters as a shell would split them, and replaces the wire's run-to-run values", () => {
    const root = makeRoot(
      `<!-- gen wire 2 --only 'a "b"' --from "c d" --first 1 -->\n<!-- /gen -->\n` +
        `<!-- gen wire 2 --only "open -->\n<!-- /gen -->\n`,
    );
    const uuid = "3735173e-5195-4c60-8095-959c4e573290";
    write(root, "steps/run.mjs", `console.log(JSON.stringify(process.argv.slice(2)), "mcp-session-id: ${uuid}");`);
    expect(docs(root, "sync").status).toBe(1);
    const written = readFileSync(path.join(root, "docs/01-x.md"), "utf8").split("\n");
    expect(written[2]).toBe(
      '["2","--wire","--only","a \\"b\\"","--from","c d","--first","1"] mcp-session-id: <session id>',
    );
    expect(docs(root, "check").output).toContain('docs/01-x.md:6: gen wire 2 --only "open: unclosed quote');
  });

  it("keeps a UTF-8 character that arrives split across two chunks", () => {
    const halves = "w(Buffer.from([0x63, 0xc3])); setTimeout(() => w(Buffer.from([0xa9])), 50)";
    const script = `const w = (b) => process.stdout.write(b); ${halves}`;
    const root = makeRoot(`<!-- gen exec node -e "${script}" -->\n<!-- /gen -->\n`);
    expect(docs(root, "sync").status).toBe(0);
    expect(readFileSync(path.join(root, "docs/01-x.md"), "utf8")).toContain("```text\ncé\n```");
  });
});

// A command that starts a server in a process group of its own, as a demo's host does, and stops it on any signal.
const HANGS = `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const server = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
writeFileSync("pids", process.pid + " " + server.pid);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => (server.kill(), process.exit(0)));
setInterval(() => {}, 1000);
`;

describe("a signal to docs.mjs", { timeout: 30_000 }, () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ])("%s is passed on to the command it runs, which stops its own server; docs.mjs exits %i", async (signal, code) => {
    const root = makeRoot("<!-- gen exec node hangs.mjs -->\n<!-- /gen -->\n");
    write(root, "hangs.mjs", HANGS);
    const child = spawn(process.execPath, [DOCS, "sync", "--root", root], { stdio: "ignore" });
    const exited = new Promise((resolve) => child.on("exit", (status) => resolve(status)));
    const pidsFile = path.join(root, "pids");
    while (!existsSync(pidsFile) || readFileSync(pidsFile, "utf8") === "") await sleep(50);
    const pids = readFileSync(pidsFile, "utf8").split(" ").map(Number);
    child.kill(signal);
    expect(await exited).toBe(code);
    const deadline = Date.now() + 5000;
    while (pids.some(isAlive) && Date.now() < deadline) await sleep(50);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});

describe("the voice rule", () => {
  it("fails the check on a chapter's prose, and leaves README alone", () => {
    const root = makeRoot(`${upToDate}\nNow simply run it.\n`);
    writeFileSync(path.join(root, "README.md"), "Simply clone it.\n");
    const { status, output } = docs(root, "check");
    expect(status).toBe(1);
    expect(output).toContain('error: docs/01-x.md:13: prose: "simply"');
    expect(output).not.toContain("README.md");
  });
});

describe("the hand-written rule", () => {
  it("reports a ```ts block outside a gen block", () => {
    const { errors } = parseDoc("# X\n\n```ts\nconst x = 1;\n```\n");
    expect(errors).toEqual([expect.objectContaining({ line: 3 })]);
    expect(errors[0].message).toContain("hand-written");
  });

  it("accepts a block marked hand-written on the line before", () => {
    expect(parseDoc("<!-- hand-written: pseudo-code -->\n```typescript\nx\n```\n").errors).toEqual([]);
  });

  it("ignores other languages and markers shown inside a fence", () => {
    expect(parseDoc("```sh\nls\n```\n````md\n<!-- gen code nope -->\n```ts\n````\n").errors).toEqual([]);
  });

  it("fails the check command on an unmarked block", () => {
    const { status, output } = docs(makeRoot(`${upToDate}\n\`\`\`ts\nconst x = 1;\n\`\`\`\n`), "check");
    expect(status).toBe(1);
    expect(output).toContain("docs/01-x.md:13: ```ts block outside a gen block");
  });
});
