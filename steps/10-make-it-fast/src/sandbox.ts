// createFile's sandbox: every write lands inside one folder fixed when the server starts. The parent folder's real path
// must lie inside the sandbox's; the file is written beside its target and renamed over it.
import { randomBytes } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";

/** A write the sandbox refuses. Its message names the path only as the caller gave it, never an absolute one. */
export class SandboxError extends Error {}

/** Returns the sandbox's real path, or throws a one-line reason. */
export async function openSandbox(folder: string): Promise<string> {
  const root = await fs.realpath(folder).catch(() => undefined);
  if (root === undefined) throw new Error(`sandbox folder ${folder} does not exist`);
  if (!(await fs.stat(root)).isDirectory()) throw new Error(`sandbox ${folder} is not a folder`);
  return root;
}

//#region check-name
// Checked as text, before any file is touched. Control characters hide in logs and terminals.
function checkName(relative: string): void {
  if (relative === "") throw new SandboxError("the path is empty");
  if (/[\u0000-\u001f\u007f]/.test(relative)) throw new SandboxError("the path contains a control character");
  if (path.isAbsolute(relative)) throw new SandboxError("the path must be relative to the sandbox");
  const parts = relative.split("/");
  if (parts.includes("..")) throw new SandboxError('the path must not contain ".."');
  if (relative.endsWith("/") || parts.at(-1) === ".") throw new SandboxError("the path names a folder, not a file");
}
//#endregion

//#region resolve
/** The real path of the file's parent folder, checked to lie inside the sandbox, and the file's own name. */
async function resolveInside(root: string, relative: string): Promise<{ parent: string; name: string }> {
  checkName(relative);
  const joined = path.join(root, relative);
  let parent: string;
  try {
    // realpath follows every symbolic link on the way, so a folder that links outside shows up here.
    parent = await fs.realpath(path.dirname(joined));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new SandboxError("its parent folder does not exist");
    throw error;
  }
  if (parent !== root && !parent.startsWith(root + path.sep))
    throw new SandboxError("the path leads outside the sandbox");
  if (!(await fs.stat(parent)).isDirectory()) throw new SandboxError("its parent is not a folder");
  return { parent, name: path.basename(joined) };
}
//#endregion

//#region write
/** Creates or replaces a file inside the sandbox; returns the number of bytes written. */
export async function writeInside(root: string, relative: string, content: string): Promise<number> {
  const { parent, name } = await resolveInside(root, relative);
  // Race left open: a parent folder swapped for a symbolic link after realpath is still followed (a later step
  // closes it).
  const target = path.join(parent, name);
  const existing = await fs.lstat(target).catch(() => undefined);
  if (existing?.isSymbolicLink()) throw new SandboxError("it is a symbolic link; links are not followed");
  if (existing !== undefined && !existing.isFile()) throw new SandboxError("it exists and is not a regular file");
  // rename() replaces the name, never what it points to: a hard link elsewhere keeps the old text, and a link or a
  // FIFO put there after the check is replaced, not written through or waited on.
  const temporary = path.join(parent, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
  const bytes = Buffer.from(content, "utf8");
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
  await fs.writeFile(temporary, bytes, { flag: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644 });
  try {
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
  return bytes.length;
}
//#endregion
