// The workspace module on its own: what it reads, lists and writes, what it refuses, and what it never touches.
// Traps are planted between calls, so nothing checked once at the start can be trusted since.
// How the server turns these answers into tool results is tested in server.test.ts.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { listInside, openWorkspace, readInside, SIZE_LIMIT, WorkspaceError, writeInside } from "./workspace.ts";

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
  write: (relative: string) => writeInside(root, relative, "x"),
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
// What the outside folder holds; every refused call must leave it exactly so.
const outsideState = () =>
  readdirSync(outside)
    .sort()
    .map((name) => `${name}: ${readFileSync(path.join(outside, name), "utf8")}`);

describe("reads, lists and writes", () => {
  test("reads a file, in a subfolder too, with . and empty segments folded away", () => {
    expect(readInside(root, "notes.txt")).toBe("Inside the workspace.\n");
    expect(readInside(root, "./docs//readme.md")).toBe("# Docs\n");
  });

  test("lists a folder sorted, folders with a trailing slash, and . as the workspace", () => {
    expect(listInside(root, ".")).toBe("docs/\nnotes.txt");
    expect(listInside(root, "docs")).toBe("readme.md");
  });

  test("creates and replaces a file, and leaves no temporary file behind", () => {
    expect(writeInside(root, "docs/new.txt", "first, longer\n")).toBe(14);
    expect(writeInside(root, "docs/new.txt", "café")).toBe(5);
    expect(readFileSync(inWorkspace("docs/new.txt"), "utf8")).toBe("café");
    expect(readdirSync(inWorkspace("docs")).sort()).toEqual(["new.txt", "readme.md"]);
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

  test("refuses to write more than the size limit, counted in UTF-8 bytes", () => {
    const content = "é".repeat(SIZE_LIMIT / 2) + "x";
    expect(refusal(() => writeInside(root, "huge.txt", content))).toBe(
      `it would have ${SIZE_LIMIT + 1} bytes, over the limit of ${SIZE_LIMIT}`,
    );
    expect(existsSync(inWorkspace("huge.txt"))).toBe(false);
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
    ["write", "a folder written with a trailing slash", "docs/", 'the path ends in "/"; leave it out'],
    ["list", "a trailing slash", "docs/", 'the path ends in "/"; leave it out'],
    ["read", "a control character", "bell\u0007.txt", "the path contains a control character"],
    ["write", "a newline", "two\nlines.txt", "the path contains a control character"],
    ["read", "a missing file", "docs/missing.md", "it does not exist"],
    ["read", "a missing folder", "no/such/file.txt", 'there is no folder "no"'],
    ["write", "a file used as a folder", "notes.txt/inner.txt", '"notes.txt" is not a folder'],
    ["read", "a folder", "docs", "it is a folder, not a file"],
    ["write", "a folder", "docs", "it is a folder, not a file"],
  ])("%s: %s", (tool, _name, relative, why) => {
    expect(refusal(() => tools[tool](relative))).toBe(why);
  });

  test("lets any other failure through as it is, for the server to log and hide", () => {
    const failure = (() => {
      try {
        writeInside(root, `${"n".repeat(300)}.txt`, "x");
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
    ["write", "out/new.txt", '"out" is a symbolic link; links are not followed'],
    ["write", "dangling.txt", "it is a symbolic link; links are not followed"],
    ["write", "leak.txt", "it is a symbolic link; links are not followed"],
  ])("%s %s", (tool, relative, why) => {
    const before = outsideState();
    expect(refusal(() => tools[tool](relative))).toBe(why);
    expect(outsideState()).toEqual(before);
  });
});

describe("special files and hard links", () => {
  test("refuses a FIFO at once, for reading and for writing, instead of waiting for the other end", () => {
    expect(spawnSync("mkfifo", [inWorkspace("pipe")]).status).toBe(0);
    const started = Date.now();
    expect(refusal(() => readInside(root, "pipe"))).toBe("it is not a regular file");
    expect(refusal(() => writeInside(root, "pipe", "x"))).toBe("it is not a regular file");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test("refuses a character device, for reading and for writing", (context) => {
    // Making a device needs root (CI runs as root); elsewhere the test has nothing to check.
    if (spawnSync("mknod", [inWorkspace("zero"), "c", "1", "5"]).status !== 0) return context.skip();
    expect(refusal(() => readInside(root, "zero"))).toBe("it is not a regular file");
    expect(refusal(() => writeInside(root, "zero", "x"))).toBe("it is not a regular file");
    expect(statSync(inWorkspace("zero")).isCharacterDevice()).toBe(true);
  });

  test("refuses to read a file with a second name, which may lie outside", () => {
    linkSync(secret, inWorkspace("hard.txt"));
    expect(refusal(() => readInside(root, "hard.txt"))).toBe("it has 2 hard links; only a file with one name is read");
  });

  test("replaces a hard-linked file without writing through to the other name", () => {
    linkSync(secret, inWorkspace("hard-write.txt"));
    expect(writeInside(root, "hard-write.txt", "new")).toBe(3);
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
    const swapper = spawn(process.execPath, [swap, "race", "30000"], {
      cwd: workspace,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const closed = once(swapper, "close");
    try {
      await new Promise((resolve) => swapper.stdout.once("data", resolve));
      const seen = { inside: 0, refused: 0, outside: 0 };
      // At least 2,000 reads, and on until both states were seen: the swapper may be slow to get the CPU.
      for (let reads = 0; reads < 2000 || (reads < 200_000 && (seen.inside === 0 || seen.refused === 0)); reads++) {
        try {
          const text = readInside(root, "race/secret.txt");
          seen[text.includes("TOP SECRET") ? "outside" : "inside"]++;
        } catch {
          seen.refused++; // refused, or an entry that vanished between two system calls: either way nothing was read
        }
      }
      expect(seen.outside).toBe(0);
      expect(seen.inside).toBeGreaterThan(0);
      expect(seen.refused).toBeGreaterThan(0);
    } finally {
      swapper.kill();
      await closed;
    }
  });
  //#endregion
});
