// The file tools' workspace: every path is walked from the workspace root one folder at a time, and no link is
// followed. Node has no openat(), so the walk moves the working directory folder by folder and checks each landing.
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

export const SIZE_LIMIT = 1024 * 1024; // bytes: the largest file read_file returns and write_file writes
const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** A request the workspace refuses. Its message names the path only as the caller gave it, never an absolute one. */
export class WorkspaceError extends Error {}

/** Returns the workspace's real path, or throws a one-line reason. */
export function openWorkspace(folder: string): string {
  // Without O_NOFOLLOW (Windows) the flag would be undefined, and every last name would be followed.
  if (O_NOFOLLOW === undefined) throw new Error("this platform has no O_NOFOLLOW; refusing to serve files");
  if (!existsSync(folder)) throw new Error(`workspace folder ${folder} does not exist`);
  const root = realpathSync(folder);
  if (!statSync(root).isDirectory()) throw new Error(`workspace ${folder} is not a folder`);
  return root;
}

//#region split-path
// Checked as text, before any file is touched. ".." is refused, not resolved: the walk below never needs it.
function splitPath(relative: string): string[] {
  if (relative === "") throw new WorkspaceError("the path is empty");
  if (/[\u0000-\u001f\u007f]/.test(relative)) throw new WorkspaceError("the path contains a control character");
  if (path.isAbsolute(relative)) throw new WorkspaceError("the path must be relative to the workspace");
  if (relative.endsWith("/")) throw new WorkspaceError('the path ends in "/"; leave it out');
  const parts = relative.split("/").filter((part) => part !== "" && part !== ".");
  if (parts.includes("..")) throw new WorkspaceError('the path must not contain ".."');
  return parts;
}

function splitFile(relative: string): { folders: string[]; name: string } {
  const parts = splitPath(relative);
  if (parts.length === 0) throw new WorkspaceError("the path names the workspace folder, not a file");
  return { folders: parts.slice(0, -1), name: parts.at(-1)! };
}
//#endregion

//#region enter-folder
// chdir() follows a symbolic link, so the folder it lands in must be the very entry that lstat() checked.
function enterFolder(name: string): void {
  // bigint: inode numbers can pass 2^53, where plain numbers would round two inodes together.
  const entry = lstatSync(name, { bigint: true, throwIfNoEntry: false });
  if (entry === undefined) throw new WorkspaceError(`there is no folder "${name}"`);
  if (entry.isSymbolicLink()) throw new WorkspaceError(`"${name}" is a symbolic link; links are not followed`);
  if (!entry.isDirectory()) throw new WorkspaceError(`"${name}" is not a folder`);
  process.chdir(name);
  const landed = statSync(".", { bigint: true });
  if (landed.dev !== entry.dev || landed.ino !== entry.ino)
    throw new WorkspaceError(`"${name}" changed while it was entered`);
}
//#endregion

//#region inside
// Synchronous from chdir to chdir: no other request's JavaScript runs while the working directory is borrowed.
function inside<T>(root: string, folders: string[], use: () => T): T {
  const home = process.cwd();
  try {
    process.chdir(root); // The root's own path is trusted: whoever can replace it can reach outside already.
    for (const name of folders) enterFolder(name);
    return use();
  } finally {
    process.chdir(home);
  }
}
//#endregion

//#region check-entry
// lstat() looks at the name without opening it: a FIFO or a device is refused before open() could block or touch it.
function checkEntry(name: string, mustExist: boolean): void {
  const entry = lstatSync(name, { throwIfNoEntry: false });
  if (entry === undefined && mustExist) throw new WorkspaceError("it does not exist");
  if (entry?.isSymbolicLink()) throw new WorkspaceError("it is a symbolic link; links are not followed");
  if (entry?.isDirectory()) throw new WorkspaceError("it is a folder, not a file");
  if (entry !== undefined && !entry.isFile()) throw new WorkspaceError("it is not a regular file");
}
//#endregion

//#region read
/** The UTF-8 text of a file inside the workspace, at most SIZE_LIMIT bytes. */
export function readInside(root: string, relative: string): string {
  const { folders, name } = splitFile(relative);
  return inside(root, folders, () => {
    checkEntry(name, true);
    // Swapped after lstat, a link fails O_NOFOLLOW and a FIFO opens at once under O_NONBLOCK; fstat refuses the rest.
    const fd = openSync(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) throw new WorkspaceError("it is not a regular file");
      // A second name may lie outside the workspace, and no check of this one can tell.
      if (opened.nlink > 1)
        throw new WorkspaceError(`it has ${opened.nlink} hard links; only a file with one name is read`);
      if (opened.size > SIZE_LIMIT)
        throw new WorkspaceError(`it has ${opened.size} bytes, over the limit of ${SIZE_LIMIT}`);
      return decodeUtf8(readLimited(fd));
    } finally {
      closeSync(fd);
    }
  });
}

// One byte past the limit is asked for, so a file that grows after fstat is refused rather than cut short.
function readLimited(fd: number): Buffer {
  const buffer = Buffer.alloc(SIZE_LIMIT + 1);
  let length = 0;
  let read = -1;
  while (read !== 0 && length < buffer.length) {
    read = readSync(fd, buffer, length, buffer.length - length, null);
    length += read;
  }
  if (length > SIZE_LIMIT) throw new WorkspaceError(`it grew past the limit of ${SIZE_LIMIT} bytes while it was read`);
  return buffer.subarray(0, length);
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new WorkspaceError("it is not UTF-8 text");
  }
}
//#endregion

//#region list
/** A file name as a listing shows it: quoted as JSON if it holds a control character. */
// A name may hold a newline: JSON quotes keep it on one line instead of letting it forge another entry.
const showName = (name: string) => (/[\u0000-\u001f\u007f]/.test(name) ? JSON.stringify(name) : name);

/** A folder's entries, one name a line in plain sort order, folders ending in "/"; "." is the workspace itself. */
export function listInside(root: string, relative: string): string {
  return inside(root, splitPath(relative), () =>
    readdirSync(".", { withFileTypes: true })
      .map((entry) => showName(entry.name) + (entry.isDirectory() ? "/" : ""))
      .sort()
      .join("\n"),
  );
}
//#endregion

//#region write
/** Creates or replaces a file inside the workspace; returns the number of bytes written. */
export function writeInside(root: string, relative: string, content: string): number {
  const bytes = Buffer.from(content, "utf8");
  if (bytes.length > SIZE_LIMIT)
    throw new WorkspaceError(`it would have ${bytes.length} bytes, over the limit of ${SIZE_LIMIT}`);
  const { folders, name } = splitFile(relative);
  return inside(root, folders, () => {
    checkEntry(name, false);
    // Written under a fresh name in the verified folder, then renamed over the entry: a hard link is never written
    // through.
    const temporary = `.${name}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      // "wx" is O_CREAT | O_EXCL, which fails on any existing name, a link included, and so never writes through one.
      writeFileSync(temporary, bytes, { flag: "wx", mode: 0o644 });
      renameSync(temporary, name);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    return bytes.length;
  });
}
//#endregion
