// Confines file access to one workspace folder: no `..`, no outside absolute path, no symbolic link.
// Node has no openat(), so the walk moves the working directory folder by folder and checks each landing.
import {
  closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync,
  readdirSync, readSync, realpathSync, statSync, writeFileSync,
} from "node:fs";
import path from "node:path";

export const SIZE_LIMIT = 1024 * 1024; // bytes: the largest file read_file returns and write_file writes

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;
const REASONS: Record<string, string> = {
  ELOOP: "is a symbolic link; links are not followed",
  ENOENT: "does not exist",
  EEXIST: "already exists; pass overwrite: true to replace it",
  EISDIR: "is a folder",
  ENXIO: "is not a regular file",
  EACCES: "is not accessible",
};

const refusal = (shown: string, reason: string) => new Error(`${JSON.stringify(shown)} ${reason}.`);

//#region split-path
// Lexical `..` handling is sound only because no symbolic link is ever followed below.
function splitPath(root: string, input: string): string[] {
  const relative = path.relative(root, path.resolve(root, input));
  if (relative === "") return [];
  if (relative.split(path.sep)[0] === ".." || path.isAbsolute(relative)) throw refusal(input, "is outside the workspace");
  return relative.split(path.sep);
}
//#endregion

//#region enter-folder
// chdir() follows a symbolic link, so the folder it lands in must be the very entry lstat() checked.
function enterFolder(name: string, shown: string): void {
  // bigint: inode numbers can pass 2^53, where plain numbers would round two inodes together.
  const entry = lstatSync(name, { bigint: true, throwIfNoEntry: false });
  if (entry === undefined) throw refusal(shown, `has no folder "${name}"`);
  if (entry.isSymbolicLink()) throw refusal(shown, `goes through "${name}", a symbolic link; links are not followed`);
  if (!entry.isDirectory()) throw refusal(shown, `goes through "${name}", which is not a folder`);
  process.chdir(name);
  const landed = statSync(".", { bigint: true });
  if (landed.dev !== entry.dev || landed.ino !== entry.ino) throw refusal(shown, `changed while "${name}" was being opened`);
}
//#endregion

//#region open-entry
// O_NOFOLLOW refuses a link in the last component; O_NONBLOCK keeps a planted FIFO from hanging the server.
function openEntry(name: string, flags: number, shown: string): number {
  try {
    return openSync(name, flags | O_NOFOLLOW | O_NONBLOCK, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw refusal(shown, REASONS[code] ?? `cannot be opened (${code})`);
  }
}
//#endregion

//#region read-limited
// The size is checked on the opened file, and one byte past the limit is read to catch a file that grows.
function readLimited(fd: number, shown: string): Buffer {
  const info = fstatSync(fd);
  if (info.isDirectory()) throw refusal(shown, "is a folder; use list_files");
  if (!info.isFile()) throw refusal(shown, "is not a regular file");
  if (info.size > SIZE_LIMIT) throw refusal(shown, `has ${info.size} bytes, over the limit of ${SIZE_LIMIT}`);
  const buffer = Buffer.alloc(SIZE_LIMIT + 1);
  let length = 0;
  let read = -1;
  while (length < buffer.length && read !== 0) {
    read = readSync(fd, buffer, length, buffer.length - length, null);
    length += read;
  }
  if (length > SIZE_LIMIT) throw refusal(shown, `grew past the limit of ${SIZE_LIMIT} bytes while being read`);
  return buffer.subarray(0, length);
}
//#endregion

export class Workspace {
  private constructor(readonly root: string) {}

  /** Resolves the folder once, at start: its own path is trusted, everything below it is checked on each call. */
  static open(folder: string): Workspace {
    // Without O_NOFOLLOW (Windows), the flag would silently be 0 and every final link would be followed.
    if (O_NOFOLLOW === undefined) throw new Error("this platform has no O_NOFOLLOW; refusing to serve files");
    const root = realpathSync(folder);
    if (!statSync(root).isDirectory()) throw new Error(`${folder} is not a folder`);
    return new Workspace(root);
  }

  //#region inside
  // Everything between the chdir() calls is synchronous: no other request's JavaScript runs with a borrowed cwd.
  private inside<T>(folders: string[], shown: string, use: () => T): T {
    const home = process.cwd();
    try {
      process.chdir(this.root);
      for (const name of folders) enterFolder(name, shown);
      return use();
    } finally {
      process.chdir(home);
    }
  }
  //#endregion

  private splitFile(input: string): { folders: string[]; name: string } {
    const parts = splitPath(this.root, input);
    if (parts.length === 0) throw refusal(input, "is the workspace folder, not a file");
    return { folders: parts.slice(0, -1), name: parts[parts.length - 1] };
  }

  readFile(input: string): Buffer {
    const { folders, name } = this.splitFile(input);
    return this.inside(folders, input, () => {
      const fd = openEntry(name, O_RDONLY, input);
      try {
        return readLimited(fd, input);
      } finally {
        closeSync(fd);
      }
    });
  }

  /** Names in plain sort() order, folders with a trailing "/". */
  listFiles(input: string): string[] {
    return this.inside(splitPath(this.root, input), input, () =>
      readdirSync(".", { withFileTypes: true })
        .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
        .sort(),
    );
  }

  //#region write-file
  // Without overwrite, O_EXCL makes "create" atomic; with it, truncation waits until fstat() shows a regular file.
  writeFile(input: string, content: string, overwrite: boolean): number {
    const bytes = Buffer.from(content, "utf8");
    if (bytes.length > SIZE_LIMIT) throw refusal(input, `would have ${bytes.length} bytes, over the limit of ${SIZE_LIMIT}`);
    const { folders, name } = this.splitFile(input);
    return this.inside(folders, input, () => {
      const fd = openEntry(name, O_WRONLY | O_CREAT | (overwrite ? 0 : O_EXCL), input);
      try {
        if (!fstatSync(fd).isFile()) throw refusal(input, "is not a regular file");
        ftruncateSync(fd, 0);
        writeFileSync(fd, bytes);
        return bytes.length;
      } finally {
        closeSync(fd);
      }
    });
  }
  //#endregion
}
