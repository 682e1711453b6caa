// createFile through the SDK, against the real server: what it writes, what it refuses, and what it never touches.
// Every trap is planted in a fresh temporary folder; the file outside the sandbox is checked after each refusal.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { callText, connect, serverPath, type SdkConnection } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 20_000, hookTimeout: 60_000 });

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
const sandbox = path.join(base, "sandbox");
const outside = path.join(base, "outside");
const secret = path.join(outside, "secret.txt");
let server: SdkConnection;

beforeAll(async () => {
  mkdirSync(sandbox);
  mkdirSync(outside);
  writeFileSync(secret, "secret\n");
  server = await connect(sandbox, "legacy");
});
afterAll(async () => {
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

const createFile = (filePath: string, content = "x") =>
  callText(server.client, "createFile", { path: filePath, content });
const wrote = (filePath: string, bytes: number) => ({ isError: false, text: `Wrote ${bytes} bytes to ${filePath}` });
const refused = (filePath: string, why: string) => ({
  isError: true,
  text: `createFile refused ${JSON.stringify(filePath)}: ${why}`,
});

describe("writes", () => {
  test("creates a file and reports the bytes written", async () => {
    expect(await createFile("notes.txt", "café\n")).toEqual(wrote("notes.txt", 6));
    expect(readFileSync(path.join(sandbox, "notes.txt"), "utf8")).toBe("café\n");
  });

  test("writes into a subfolder, through a folder link that stays inside, and replaces a file", async () => {
    mkdirSync(path.join(sandbox, "sub"));
    symlinkSync("sub", path.join(sandbox, "inner"));
    expect(await createFile("sub/a.txt", "one")).toEqual(wrote("sub/a.txt", 3));
    expect(await createFile("inner/a.txt", "two!")).toEqual(wrote("inner/a.txt", 4));
    expect(readFileSync(path.join(sandbox, "sub", "a.txt"), "utf8")).toBe("two!");
  });

  test("replaces a hard-linked file without writing through to the other name", async () => {
    linkSync(secret, path.join(sandbox, "hard.txt"));
    expect(await createFile("hard.txt", "new")).toEqual(wrote("hard.txt", 3));
    expect(readFileSync(secret, "utf8")).toBe("secret\n");
    expect(statSync(path.join(sandbox, "hard.txt")).nlink).toBe(1);
  });
});

describe("refusals are isError results that name the path as given and never an absolute one", () => {
  test.each([
    ["an empty path", "", "the path is empty"],
    ["an absolute path", "/tmp/evil.txt", "the path must be relative to the sandbox"],
    ["a .. segment", "../evil.txt", 'the path must not contain ".."'],
    ["the sandbox itself", ".", "the path names a folder, not a file"],
    ["a trailing slash", "sub/", "the path names a folder, not a file"],
    ["a control character", "bell\u0007.txt", "the path contains a control character"],
    ["a missing parent folder", "no/such/file.txt", "its parent folder does not exist"],
    ["a folder", "sub", "it exists and is not a regular file"],
  ])("%s", async (_name, filePath, why) => {
    expect(await createFile(filePath)).toEqual(refused(filePath, why));
  });

  test("refuses a folder link to outside, made after the server started", async () => {
    symlinkSync(outside, path.join(sandbox, "out"));
    expect(await createFile("out/evil.txt")).toEqual(refused("out/evil.txt", "the path leads outside the sandbox"));
    expect(existsSync(path.join(outside, "evil.txt"))).toBe(false);
  });

  test("refuses a link to an outside file and leaves its target alone", async () => {
    symlinkSync(secret, path.join(sandbox, "file-link"));
    expect(await createFile("file-link", "overwritten")).toEqual(
      refused("file-link", "it is a symbolic link; links are not followed"),
    );
    expect(readFileSync(secret, "utf8")).toBe("secret\n");
  });

  test("refuses a FIFO at once instead of waiting for a reader", async () => {
    expect(spawnSync("mkfifo", [path.join(sandbox, "pipe")]).status).toBe(0);
    const started = Date.now();
    expect(await createFile("pipe")).toEqual(refused("pipe", "it exists and is not a regular file"));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("turns any other failure into a generic message, with the details only on stderr", async () => {
    const name = `${"n".repeat(300)}.txt`;
    expect(await createFile(name)).toEqual({ isError: true, text: "createFile failed with an internal error" });
    await vi.waitFor(() => expect(server.stderr()).toContain("ENAMETOOLONG"));
    // The error the SDK would have sent names the absolute path; the log has it, the client does not.
    expect(server.stderr()).toContain(sandbox);
  });
});

describe("start-up", () => {
  test.each([
    ["no folder", [], "expected one sandbox folder\nusage: server.ts <sandbox-folder>\n"],
    ["two folders", [sandbox, outside], "expected one sandbox folder\nusage: server.ts <sandbox-folder>\n"],
    [
      "a folder that does not exist",
      [path.join(base, "nowhere")],
      `sandbox folder ${path.join(base, "nowhere")} does not exist\n`,
    ],
    ["a file", [secret], `sandbox ${secret} is not a folder\n`],
  ])("exits 2 with one clear message for %s", (_name, args, message) => {
    const run = spawnSync(process.execPath, ["--import", import.meta.resolve("tsx"), serverPath, ...args], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({
      status: 2,
      stderr: message,
      stdout: "",
    });
  });
});
