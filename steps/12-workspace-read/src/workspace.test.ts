// The workspace module on its own: what it reads and lists, and what it refuses.
// Traps are planted between calls, so nothing checked once at the start can be trusted since.
// How the server turns these answers into tool results is tested in server.test.ts.
import { spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listInside, openWorkspace, readInside, SIZE_LIMIT, WorkspaceError } from "./workspace.ts";

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
const workspace = path.join(base, "workspace");
const outside = path.join(base, "outside");
const secret = path.join(outside, "secret.txt");
const inWorkspace = (name: string) => path.join(workspace, name);
mkdirSync(path.join(workspace, "docs"), { recursive: true });
mkdirSync(outside);
writeFileSync(secret, "TOP SECRET\n");
writeFileSync(inWorkspace("notes.txt"), "Inside the workspace.\n");
writeFileSync(inWorkspace("docs/readme.md"), "# Docs\n");
const root = openWorkspace(workspace);
afterAll(() => rmSync(base, { recursive: true, force: true }));

const tools = {
  read: (relative: string) => readInside(root, relative),
  list: (relative: string) => listInside(root, relative),
};
type Tool = keyof typeof tools;

/** The reason a call is refused with; fails the test if it is not refused, or fails some other way. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WorkspaceError) return error.message;
    throw error;
  }
  throw new Error("the call was not refused");
}

describe("reads and lists", () => {
  test("reads a file, in a subfolder too, with . and empty segments folded away", () => {
    expect(readInside(root, "notes.txt")).toBe("Inside the workspace.\n");
    expect(readInside(root, "./docs//readme.md")).toBe("# Docs\n");
  });

  test("lists a folder sorted, folders with a trailing slash, and . as the workspace", () => {
    expect(listInside(root, ".")).toBe("docs/\nnotes.txt");
    expect(listInside(root, "docs")).toBe("readme.md");
  });

  test("gives the working directory back after every call, refused or not", () => {
    const home = process.cwd();
    readInside(root, "docs/readme.md");
    refusal(() => readInside(root, "docs/missing.md"));
    expect(process.cwd()).toBe(home);
  });

  test("reads a file of exactly the size limit and refuses one byte more", () => {
    writeFileSync(inWorkspace("limit.txt"), "x".repeat(SIZE_LIMIT));
    expect(readInside(root, "limit.txt")).toHaveLength(SIZE_LIMIT);
    writeFileSync(inWorkspace("big.txt"), "x".repeat(SIZE_LIMIT + 1));
    expect(refusal(() => readInside(root, "big.txt"))).toBe(
      `it has ${SIZE_LIMIT + 1} bytes, over the limit of ${SIZE_LIMIT}`,
    );
  });

  test("refuses a file that is not UTF-8 text", () => {
    writeFileSync(inWorkspace("latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(refusal(() => readInside(root, "latin1.txt"))).toBe("it is not UTF-8 text");
  });
});

describe("opening", () => {
  test("gives the real path of the workspace, links in its own path resolved", () => {
    symlinkSync(workspace, path.join(base, "via-link"));
    expect(openWorkspace(path.join(base, "via-link"))).toBe(root);
  });

  test.each([
    [
      "a folder that does not exist",
      path.join(base, "nowhere"),
      `workspace folder ${path.join(base, "nowhere")} does not exist`,
    ],
    ["a file", secret, `workspace ${secret} is not a folder`],
  ])("refuses %s with one line", (_name, folder, message) => {
    expect(() => openWorkspace(folder)).toThrow(new Error(message));
  });
});

describe("refusals never name an absolute path", () => {
  test.each<[Tool, string, string, string]>([
    ["read", "an empty path", "", "the path is empty"],
    ["read", "an absolute path", "/etc/passwd", "the path must be relative to the workspace"],
    ["read", "a .. segment", "../outside/secret.txt", 'the path must not contain ".."'],
    ["read", "a .. that comes back", "docs/../notes.txt", 'the path must not contain ".."'],
    ["read", "the workspace itself", ".", "the path names the workspace folder, not a file"],
    ["read", "a trailing slash", "notes.txt/", 'the path ends in "/"; leave it out'],
    ["list", "a trailing slash", "docs/", 'the path ends in "/"; leave it out'],
    ["read", "a control character", "bell\u0007.txt", "the path contains a control character"],
    ["read", "a newline", "two\nlines.txt", "the path contains a control character"],
    ["read", "a missing file", "docs/missing.md", "it does not exist"],
    ["read", "a missing folder", "no/such/file.txt", 'there is no folder "no"'],
    ["read", "a file used as a folder", "notes.txt/inner.txt", '"notes.txt" is not a folder'],
    ["read", "a folder", "docs", "it is a folder, not a file"],
    ["list", "a file", "notes.txt", '"notes.txt" is not a folder'],
  ])("%s: %s", (tool, _name, relative, why) => {
    expect(refusal(() => tools[tool](relative))).toBe(why);
  });

  test("lets any other failure through as it is, for the server to log and hide", () => {
    const failure = (() => {
      try {
        readInside(root, `${"n".repeat(300)}.txt`);
      } catch (error) {
        return error;
      }
    })();
    expect(failure).not.toBeInstanceOf(WorkspaceError);
    expect(failure).toMatchObject({ code: "ENAMETOOLONG" });
  });
});

describe("links made after the workspace was opened are never followed", () => {
  beforeAll(() => {
    symlinkSync(secret, inWorkspace("leak.txt"));
    symlinkSync(path.join(outside, "missing.txt"), inWorkspace("dangling.txt"));
    symlinkSync("notes.txt", inWorkspace("inside-link.txt"));
    symlinkSync(outside, inWorkspace("out"));
  });

  test.each<[Tool, string, string]>([
    ["read", "leak.txt", "it is a symbolic link; links are not followed"],
    ["read", "dangling.txt", "it is a symbolic link; links are not followed"],
    ["read", "inside-link.txt", "it is a symbolic link; links are not followed"],
    ["read", "out/secret.txt", '"out" is a symbolic link; links are not followed'],
    ["list", "out", '"out" is a symbolic link; links are not followed'],
  ])("%s %s", (tool, relative, why) => {
    expect(refusal(() => tools[tool](relative))).toBe(why);
  });
});

describe("special files and hard links", () => {
  test("refuses a FIFO at once instead of waiting for the other end", () => {
    expect(spawnSync("mkfifo", [inWorkspace("pipe")]).status).toBe(0);
    const started = Date.now();
    expect(refusal(() => readInside(root, "pipe"))).toBe("it is not a regular file");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("refuses a character device", (context) => {
    // Making a device needs root (CI runs as root); elsewhere the test has nothing to check.
    if (spawnSync("mknod", [inWorkspace("zero"), "c", "1", "5"]).status !== 0) return context.skip();
    expect(refusal(() => readInside(root, "zero"))).toBe("it is not a regular file");
    expect(statSync(inWorkspace("zero")).isCharacterDevice()).toBe(true);
  });

  test("refuses to read a file with a second name, which may lie outside", () => {
    linkSync(secret, inWorkspace("hard.txt"));
    expect(refusal(() => readInside(root, "hard.txt"))).toBe("it has 2 hard links; only a file with one name is read");
  });
});
