// The createFile tool on the wire, against the real server: what it writes, what it refuses, and what it never touches.
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
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Wire } from "./test/wire.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-sandbox-test-"));
const sandbox = path.join(base, "sandbox");
const outside = path.join(base, "outside");
const secret = path.join(outside, "secret.txt");
let wire: Wire;

beforeAll(async () => {
  mkdirSync(sandbox);
  mkdirSync(outside);
  writeFileSync(secret, "secret\n");
  wire = new Wire(serverPath, [sandbox]);
  await wire.initialize();
});
afterAll(async () => {
  expect(await wire.close()).toBe(0);
  rmSync(base, { recursive: true, force: true });
});

let nextId = 1;
async function createFile(filePath: string, content = "x"): Promise<unknown> {
  const id = nextId++;
  const params = { name: "createFile", arguments: { path: filePath, content } };
  wire.send(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }));
  const answer = JSON.parse(await wire.nextLine());
  expect(answer.id).toBe(id);
  return answer.error ?? answer.result;
}
const text = (value: string, isError?: true) => ({
  content: [{ type: "text", text: value }],
  ...(isError && { isError }),
});
const wrote = (filePath: string, bytes: number) => text(`Wrote ${bytes} bytes to ${filePath}`);
const refused = (filePath: string, why: string) => text(`createFile refused ${JSON.stringify(filePath)}: ${why}`, true);

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

describe("refusals name the path as given and never an absolute one", () => {
  test.each([
    ["an empty path", "", "the path is empty"],
    ["an absolute path", "/tmp/evil.txt", "the path must be relative to the sandbox"],
    ["a .. segment", "../evil.txt", 'the path must not contain ".."'],
    ["a .. that comes back", "sub/../evil.txt", 'the path must not contain ".."'],
    ["the sandbox itself", ".", "the path names a folder, not a file"],
    ["a trailing slash", "sub/", "the path names a folder, not a file"],
    ["a control character", "bell\u0007.txt", "the path contains a control character"],
    ["a newline", "two\nlines.txt", "the path contains a control character"],
    ["a missing parent folder", "no/such/file.txt", "its parent folder does not exist"],
    ["a file used as a folder", "notes.txt/inner.txt", "its parent is not a folder"],
    ["a folder", "sub", "it exists and is not a regular file"],
  ])("%s", async (_name, filePath, why) => {
    expect(await createFile(filePath)).toEqual(refused(filePath, why));
  });

  test("refuses a folder link to outside, made after the server started", async () => {
    symlinkSync(outside, path.join(sandbox, "out"));
    expect(await createFile("out/evil.txt")).toEqual(refused("out/evil.txt", "the path leads outside the sandbox"));
    expect(existsSync(path.join(outside, "evil.txt"))).toBe(false);
  });

  test.each([
    ["a link to an outside file", "file-link", secret],
    ["a dangling link", "dangling", path.join(outside, "new.txt")],
  ])("refuses %s and leaves its target alone", async (_name, name, target) => {
    symlinkSync(target, path.join(sandbox, name));
    expect(await createFile(name, "overwritten")).toEqual(
      refused(name, "it is a symbolic link; links are not followed"),
    );
    expect(readFileSync(secret, "utf8")).toBe("secret\n");
    expect(existsSync(path.join(outside, "new.txt"))).toBe(false);
  });

  test("refuses a FIFO at once instead of waiting for a reader", async () => {
    expect(spawnSync("mkfifo", [path.join(sandbox, "pipe")]).status).toBe(0);
    const started = Date.now();
    expect(await createFile("pipe")).toEqual(refused("pipe", "it exists and is not a regular file"));
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("turns an unexpected failure into a bare tool error, with the details only in the log", async () => {
    const name = `${"n".repeat(300)}.txt`;
    expect(await createFile(name)).toEqual(text("createFile failed with an internal error", true));
    // stderr is its own pipe: the log line may arrive a moment after the answer.
    await vi.waitFor(() => expect(wire.stderr).toContain("ENAMETOOLONG"));
  });
});

describe("start-up", () => {
  test.each([
    ["no folder", [], "expected one sandbox folder\nusage: server.ts [--max-line-bytes N] <sandbox-folder>\n"],
    [
      "a folder that does not exist",
      [path.join(base, "nowhere")],
      `sandbox folder ${path.join(base, "nowhere")} does not exist\n`,
    ],
    ["a file", [secret], `sandbox ${secret} is not a folder\n`],
  ])("exits 2 with one clear message for %s", async (_name, args, message) => {
    const bad = new Wire(serverPath, args);
    expect(await bad.close()).toBe(2);
    expect(bad.stderr).toBe(message);
  });
});
