// The file tools against the real server: what they read, list and write, what they refuse, and what they never touch.
// Traps are planted after the server started, so nothing checked once at start-up can be trusted since.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { callText, connect, serverPath, type Connection } from "./test/sdk.ts";
import { SIZE_LIMIT } from "./workspace.ts";

vi.setConfig({ testTimeout: 20_000, hookTimeout: 60_000 });

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
const workspace = path.join(base, "workspace");
const outside = path.join(base, "outside");
const secret = path.join(outside, "secret.txt");
const inWorkspace = (name: string) => path.join(workspace, name);
let server: Connection;

beforeAll(async () => {
  mkdirSync(path.join(workspace, "docs"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(secret, "TOP SECRET\n");
  writeFileSync(inWorkspace("notes.txt"), "Inside the workspace.\n");
  writeFileSync(inWorkspace("docs/readme.md"), "# Docs\n");
  server = await connect(workspace, "legacy");
});
afterAll(async () => {
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

const call = (tool: string, args: Record<string, unknown>) => callText(server.client, tool, args);
const refused = (tool: string, filePath: string, why: string) => ({ isError: true, text: `${tool} refused ${JSON.stringify(filePath)}: ${why}` });
// What the outside folder holds; every refused call must leave it exactly so.
const outsideState = () => readdirSync(outside).sort().map((name) => `${name}: ${readFileSync(path.join(outside, name), "utf8")}`);

describe("reads, lists and writes", () => {
  test("reads a file, in a subfolder too, with . and empty segments folded away", async () => {
    expect(await call("read_file", { path: "notes.txt" })).toEqual({ isError: false, text: "Inside the workspace.\n" });
    expect(await call("read_file", { path: "./docs//readme.md" })).toEqual({ isError: false, text: "# Docs\n" });
  });

  test("lists a folder sorted, folders with a trailing slash, and . as the workspace", async () => {
    expect(await call("list_files", { path: "." })).toEqual({ isError: false, text: "docs/\nnotes.txt" });
    expect(await call("list_files", { path: "docs" })).toEqual({ isError: false, text: "readme.md" });
  });

  test("creates and replaces a file, and leaves no temporary file behind", async () => {
    expect(await call("write_file", { path: "docs/new.txt", content: "first, longer\n" })).toEqual({ isError: false, text: "Wrote 14 bytes to docs/new.txt" });
    expect(await call("write_file", { path: "docs/new.txt", content: "café" })).toEqual({ isError: false, text: "Wrote 5 bytes to docs/new.txt" });
    expect(readFileSync(inWorkspace("docs/new.txt"), "utf8")).toBe("café");
    expect(readdirSync(inWorkspace("docs")).sort()).toEqual(["new.txt", "readme.md"]);
  });

  test("reads a file of exactly the size limit and refuses one byte more", async () => {
    writeFileSync(inWorkspace("limit.txt"), "x".repeat(SIZE_LIMIT));
    expect((await call("read_file", { path: "limit.txt" })).text).toHaveLength(SIZE_LIMIT);
    writeFileSync(inWorkspace("big.txt"), "x".repeat(SIZE_LIMIT + 1));
    expect(await call("read_file", { path: "big.txt" })).toEqual(refused("read_file", "big.txt", `it has ${SIZE_LIMIT + 1} bytes, over the limit of ${SIZE_LIMIT}`));
  });

  test("refuses to write more than the size limit, counted in UTF-8 bytes", async () => {
    const content = "é".repeat(SIZE_LIMIT / 2) + "x";
    const why = `it would have ${SIZE_LIMIT + 1} bytes, over the limit of ${SIZE_LIMIT}`;
    expect(await call("write_file", { path: "huge.txt", content })).toEqual(refused("write_file", "huge.txt", why));
    expect(existsSync(inWorkspace("huge.txt"))).toBe(false);
  });

  test("refuses a file that is not UTF-8 text", async () => {
    writeFileSync(inWorkspace("latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await call("read_file", { path: "latin1.txt" })).toEqual(refused("read_file", "latin1.txt", "it is not UTF-8 text"));
  });
});

describe("refusals name the path as given and never an absolute one", () => {
  test.each([
    ["read_file", "an empty path", "", "the path is empty"],
    ["read_file", "an absolute path", "/etc/passwd", "the path must be relative to the workspace"],
    ["read_file", "a .. segment", "../outside/secret.txt", 'the path must not contain ".."'],
    ["read_file", "a .. that comes back", "docs/../notes.txt", 'the path must not contain ".."'],
    ["read_file", "the workspace itself", ".", "the path names the workspace folder, not a file"],
    ["write_file", "a folder written with a trailing slash", "docs/", 'the path ends in "/"; leave it out'],
    ["list_files", "a trailing slash", "docs/", 'the path ends in "/"; leave it out'],
    ["read_file", "a control character", "bell\u0007.txt", "the path contains a control character"],
    ["write_file", "a newline", "two\nlines.txt", "the path contains a control character"],
    ["read_file", "a missing file", "docs/missing.md", "it does not exist"],
    ["read_file", "a missing folder", "no/such/file.txt", 'there is no folder "no"'],
    ["write_file", "a file used as a folder", "notes.txt/inner.txt", '"notes.txt" is not a folder'],
    ["read_file", "a folder", "docs", "it is a folder, not a file"],
    ["write_file", "a folder", "docs", "it is a folder, not a file"],
  ])("%s: %s", async (tool, _name, filePath, why) => {
    expect(await call(tool, { path: filePath, ...(tool === "write_file" && { content: "x" }) })).toEqual(refused(tool, filePath, why));
  });

  test("turns any other failure into a generic message, with the details only on stderr", async () => {
    const name = `${"n".repeat(300)}.txt`;
    expect(await call("write_file", { path: name, content: "x" })).toEqual({ isError: true, text: "write_file failed with an internal error" });
    await vi.waitFor(() => expect(server.stderr()).toContain("ENAMETOOLONG"));
  });
});

describe("links made after start-up are never followed", () => {
  beforeAll(() => {
    symlinkSync(secret, inWorkspace("leak.txt"));
    symlinkSync(path.join(outside, "missing.txt"), inWorkspace("dangling.txt"));
    symlinkSync("notes.txt", inWorkspace("inside-link.txt"));
    symlinkSync(outside, inWorkspace("out"));
  });

  test.each([
    ["read_file", { path: "leak.txt" }, "it is a symbolic link; links are not followed"],
    ["read_file", { path: "dangling.txt" }, "it is a symbolic link; links are not followed"],
    ["read_file", { path: "inside-link.txt" }, "it is a symbolic link; links are not followed"],
    ["read_file", { path: "out/secret.txt" }, '"out" is a symbolic link; links are not followed'],
    ["list_files", { path: "out" }, '"out" is a symbolic link; links are not followed'],
    ["write_file", { path: "out/new.txt", content: "x" }, '"out" is a symbolic link; links are not followed'],
    ["write_file", { path: "dangling.txt", content: "x" }, "it is a symbolic link; links are not followed"],
    ["write_file", { path: "leak.txt", content: "x" }, "it is a symbolic link; links are not followed"],
  ])("%s %j", async (tool, args, why) => {
    const before = outsideState();
    expect(await call(tool, args)).toEqual(refused(tool, args.path, why));
    expect(outsideState()).toEqual(before);
  });
});

describe("special files and hard links", () => {
  test("refuses a FIFO at once, for reading and for writing, instead of waiting for the other end", async () => {
    expect(spawnSync("mkfifo", [inWorkspace("pipe")]).status).toBe(0);
    const started = Date.now();
    expect(await call("read_file", { path: "pipe" })).toEqual(refused("read_file", "pipe", "it is not a regular file"));
    expect(await call("write_file", { path: "pipe", content: "x" })).toEqual(refused("write_file", "pipe", "it is not a regular file"));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("refuses a character device, for reading and for writing", async (context) => {
    // Making a device needs root (CI runs as root); elsewhere the test has nothing to check.
    if (spawnSync("mknod", [inWorkspace("zero"), "c", "1", "5"]).status !== 0) return context.skip();
    expect(await call("read_file", { path: "zero" })).toEqual(refused("read_file", "zero", "it is not a regular file"));
    expect(await call("write_file", { path: "zero", content: "x" })).toEqual(refused("write_file", "zero", "it is not a regular file"));
    expect(statSync(inWorkspace("zero")).isCharacterDevice()).toBe(true);
  });

  test("refuses to read a file with a second name, which may lie outside", async () => {
    linkSync(secret, inWorkspace("hard.txt"));
    expect(await call("read_file", { path: "hard.txt" })).toEqual(refused("read_file", "hard.txt", "it has 2 hard links; only a file with one name is read"));
  });

  test("replaces a hard-linked file without writing through to the other name", async () => {
    linkSync(secret, inWorkspace("hard-write.txt"));
    expect(await call("write_file", { path: "hard-write.txt", content: "new" })).toEqual({ isError: false, text: "Wrote 3 bytes to hard-write.txt" });
    expect(readFileSync(secret, "utf8")).toBe("TOP SECRET\n");
    expect(statSync(inWorkspace("hard-write.txt")).nlink).toBe(1);
  });
});

describe("a folder swapped for a link while reads go through it", () => {
  //#region race
  test("never reads outside, and both states are really seen", { timeout: 60_000 }, async () => {
    mkdirSync(inWorkspace("race"));
    writeFileSync(inWorkspace("race/secret.txt"), "inside copy\n");
    symlinkSync(outside, inWorkspace("race-link"));
    // A second process swaps "race" between the real folder and the link as fast as rename() allows, for at most 30 s.
    const swap = fileURLToPath(new URL("./fixtures/swap.mjs", import.meta.url));
    const swapper = spawn(process.execPath, [swap, "race", "30000"], { cwd: workspace, stdio: ["ignore", "pipe", "inherit"] });
    const closed = once(swapper, "close");
    try {
      await new Promise((resolve) => swapper.stdout.once("data", resolve));
      const results = [];
      for (let batch = 0; batch < 100; batch++) {
        const calls = Array.from({ length: 8 }, () => call("read_file", { path: "race/secret.txt" }));
        results.push(...(await Promise.all(calls)));
      }
      expect(results.filter((result) => result.text.includes("TOP SECRET"))).toEqual([]);
      expect(results.some((result) => result.text === "inside copy\n")).toBe(true);
      expect(results.some((result) => result.isError)).toBe(true);
    } finally {
      swapper.kill();
      await closed;
    }
  });
  //#endregion
});

describe("start-up", () => {
  test.each([
    ["no folder", [], "expected one workspace folder\nusage: server.ts <workspace-folder>\n"],
    ["a folder that does not exist", [path.join(base, "nowhere")], `workspace folder ${path.join(base, "nowhere")} does not exist\n`],
    ["a file", [secret], `workspace ${secret} is not a folder\n`],
  ])("exits 2 with one clear message for %s", (_name, args, message) => {
    const run = spawnSync(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, ...args], { encoding: "utf8", timeout: 20_000 });
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({ status: 2, stderr: message, stdout: "" });
  });
});
