// createFile's sandbox: every write lands inside one folder fixed when the server starts.
// The parent's real path must lie inside the sandbox's real path; the last name is opened with O_NOFOLLOW.
import { constants, promises as fs } from "node:fs";
import path from "node:path";

/** A write the sandbox refuses; its message is safe to show the caller (no absolute paths). */
export class SandboxError extends Error {}

/** Returns the sandbox's real path: every later check compares real paths with it. */
export async function openSandbox(folder: string): Promise<string> {
  const root = await fs.realpath(folder);
  if (!(await fs.stat(root)).isDirectory()) throw new Error(`not a folder: ${folder}`);
  return root;
}

//#region resolve
/** Turns a caller's relative path into an absolute one whose parent folder is inside the sandbox. */
export async function resolveInside(root: string, relative: string): Promise<string> {
  if (relative === "") throw new SandboxError("path must not be empty");
  if (path.isAbsolute(relative)) throw new SandboxError("path must be relative to the sandbox");
  if (relative.split("/").includes("..")) throw new SandboxError('path must not contain ".."');
  const joined = path.join(root, relative);
  let parent: string;
  try {
    // realpath follows every symlink on the way, so a folder that links outside shows up here.
    parent = await fs.realpath(path.dirname(joined));
  } catch (error) {
    if (codeOf(error) === "ENOENT") throw new SandboxError("parent folder does not exist");
    throw error;
  }
  if (parent !== root && !parent.startsWith(root + path.sep)) {
    throw new SandboxError("path leads outside the sandbox");
  }
  return path.join(parent, path.basename(joined));
}
//#endregion

//#region write
/** Creates or replaces a file inside the sandbox; returns the number of bytes written. */
export async function writeInside(root: string, relative: string, content: string): Promise<number> {
  const target = await resolveInside(root, relative);
  // Race left open: a parent folder swapped for a symlink between realpath and open is still followed.
  // Closing it needs openat2(RESOLVE_BENEATH) or a walk with a file descriptor per folder; Node offers neither.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  let file: fs.FileHandle;
  try {
    file = await fs.open(target, flags, 0o644);
  } catch (error) {
    // O_NOFOLLOW fails with ELOOP on any symlink, dangling ones included, instead of writing through it.
    if (codeOf(error) === "ELOOP") throw new SandboxError("path names a symbolic link");
    throw error;
  }
  try {
    const bytes = Buffer.from(content, "utf8");
    await file.writeFile(bytes);
    return bytes.length;
  } finally {
    await file.close();
  }
}
//#endregion

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
