import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callText, connect, makeFolders, type Connection, type Era } from "./harness.ts";

type Folders = ReturnType<typeof makeFolders>;
type EscapeCase = [tool: string, args: Record<string, unknown>, message: RegExp];

// What the outside folder holds; every refused call must leave it exactly so.
const outsideState = ({ outside }: Folders) =>
  readdirSync(outside).sort().map((name) => `${name}: ${readFileSync(path.join(outside, name), "utf8")}`);

// Links made after the server started: nothing may be checked once at startup and trusted since.
function plantLinks({ workspace, outside }: Folders): void {
  symlinkSync(path.join(outside, "secret.txt"), path.join(workspace, "leak.txt"));
  symlinkSync(path.join(outside, "missing.txt"), path.join(workspace, "dangling.txt"));
  symlinkSync(outside, path.join(workspace, "out"));
  symlinkSync("notes.txt", path.join(workspace, "inside-link.txt"));
  execFileSync("mkfifo", [path.join(workspace, "pipe")]);
}

// "<outside>" stands for the outside folder's absolute path, which exists only once a test runs.
const escapes: EscapeCase[] = [
  ["read_file", { path: "../outside/secret.txt" }, /is outside the workspace/],
  ["read_file", { path: "<outside>/secret.txt" }, /is outside the workspace/],
  ["read_file", { path: "leak.txt" }, /"leak.txt" is a symbolic link; links are not followed/],
  ["read_file", { path: "dangling.txt" }, /"dangling.txt" is a symbolic link/],
  ["read_file", { path: "out/secret.txt" }, /goes through "out", a symbolic link; links are not followed/],
  ["read_file", { path: "docs/../../outside/secret.txt" }, /is outside the workspace/],
  ["read_file", { path: "inside-link.txt" }, /is a symbolic link/],
  ["list_files", { path: ".." }, /is outside the workspace/],
  ["list_files", { path: "out" }, /goes through "out", a symbolic link/],
  ["write_file", { path: "../outside/new.txt", content: "x" }, /is outside the workspace/],
  ["write_file", { path: "<outside>/new.txt", content: "x" }, /is outside the workspace/],
  ["write_file", { path: "out/new.txt", content: "x" }, /goes through "out", a symbolic link/],
  ["write_file", { path: "dangling.txt", content: "x" }, /"dangling.txt" already exists/],
  ["write_file", { path: "dangling.txt", content: "x", overwrite: true }, /"dangling.txt" is a symbolic link/],
  ["write_file", { path: "leak.txt", content: "x", overwrite: true }, /"leak.txt" is a symbolic link/],
];

describe.each<Era>(["legacy", "modern"])("workspace confinement, %s era", (era) => {
  let folders: Folders;
  let before: string[];
  let server: Connection;
  const call = (tool: string, args: Record<string, unknown>) => callText(server.client, tool, args);

  beforeAll(async () => {
    folders = makeFolders();
    before = outsideState(folders);
    server = await connect(folders.workspace, era);
    await server.client.listTools(); // the server is up and serving before the links appear
    plantLinks(folders);
  });
  afterAll(async () => {
    await server?.close();
    folders?.remove();
  });

  it.each(escapes)("refuses %s %j", async (tool, args, message) => {
    const withOutside = { ...args, path: String(args.path).replace("<outside>", folders.outside) };
    const result = await call(tool, withOutside);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(message);
    expect(result.text).not.toContain("TOP SECRET");
    expect(outsideState(folders)).toEqual(before);
  });

  it("accepts `..` that stays inside the workspace", async () => {
    expect(await call("read_file", { path: "docs/../notes.txt" })).toEqual({ text: "Inside the workspace.\n", isError: false });
  });

  it("refuses a FIFO instead of hanging on it", async () => {
    expect(await call("read_file", { path: "pipe" })).toEqual({ isError: true, text: '"pipe" is not a regular file.' });
    const write = await call("write_file", { path: "pipe", content: "x", overwrite: true });
    expect(write).toEqual({ isError: true, text: '"pipe" is not a regular file.' });
  });
});

describe("workspace confinement under a race", () => {
  let folders: Folders;
  let server: Connection;
  const inWorkspace = (name: string) => path.join(folders.workspace, name);
  beforeAll(async () => {
    folders = makeFolders();
    server = await connect(folders.workspace, "legacy");
  });
  afterAll(async () => {
    await server?.close();
    folders?.remove();
  });

  //#region race
  it("never reads outside while a folder is swapped with a link to outside", { timeout: 20_000 }, async () => {
    mkdirSync(inWorkspace("race"));
    writeFileSync(inWorkspace("race/secret.txt"), "inside copy\n");
    symlinkSync(folders.outside, inWorkspace("race-link"));
    // A second process swaps "race" between the real folder and the link as fast as rename() allows.
    const swap = `const fs = require("node:fs"); const end = Date.now() + 10000; console.log("swapping");
      while (Date.now() < end) for (const [from, to] of [["race", "race-dir"], ["race-link", "race"], ["race", "race-link"], ["race-dir", "race"]]) fs.renameSync(from, to);`;
    const swapper = spawn(process.execPath, ["-e", swap], { cwd: folders.workspace, stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve) => swapper.stdout.once("data", resolve));
    const results = [];
    for (let batch = 0; batch < 60; batch++) {
      const calls = Array.from({ length: 8 }, () => callText(server.client, "read_file", { path: "race/secret.txt" }));
      results.push(...(await Promise.all(calls)));
    }
    swapper.kill();
    await new Promise((resolve) => swapper.once("exit", resolve));
    expect(results.filter((result) => result.text.includes("TOP SECRET"))).toEqual([]);
    // Both states were really seen, so the race was really run.
    expect(results.some((result) => result.text === "inside copy\n")).toBe(true);
    expect(results.some((result) => result.isError)).toBe(true);
  });
  //#endregion
});
