// `pnpm format:check`: whether every TypeScript and JavaScript file of the repository is as Prettier would write it,
// or only the files named on the command line. It asks what `prettier --check` asks, once per distinct file: the steps
// carry most files forward unchanged, so about half of them are byte-identical copies, and a copy with the same
// extension and the same configuration formats as the file it copies. Without git it runs `prettier --check` itself.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as prettier from "prettier";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

export const CODE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** The code files git tracks or would track (untracked ones included, ignored ones not); undefined without git. */
export function codeFiles(root = REPO_ROOT) {
  try {
    const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
    return [...new Set(listed.split("\0").filter((file) => CODE.test(file)))].sort();
  } catch {
    return undefined;
  }
}

/** The files grouped by what decides their formatting: extension, resolved configuration, and content. */
async function distinct(files, root) {
  const groups = new Map();
  for (const file of files) {
    const absolute = path.resolve(root, file);
    const ignorePath = [".gitignore", ".prettierignore"].map((name) => path.join(root, name));
    const info = await prettier.getFileInfo(absolute, { ignorePath });
    if (info.ignored) continue;
    let text;
    try {
      text = readFileSync(absolute, "utf8");
    } catch {
      continue; // deleted since git listed it
    }
    const options = await prettier.resolveConfig(absolute, { editorconfig: true });
    const key = createHash("sha256")
      .update(`${path.extname(file)}\0${JSON.stringify(options)}\0${text}`)
      .digest("hex");
    const group = groups.get(key) ?? { text, options: { ...options, filepath: absolute }, files: [] };
    group.files.push(file);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** Checks `files` (paths relative to `root`); resolves with the exit status `prettier --check` would give. */
export async function formatCheck(files, root = REPO_ROOT, print = console.log) {
  print("Checking formatting...");
  const groups = await distinct(files, root);
  let unformatted = 0;
  let broken = 0;
  for (const group of groups) {
    try {
      if (await prettier.check(group.text, group.options)) continue;
      for (const file of group.files) print(`[warn] ${file}`);
      unformatted += group.files.length;
    } catch (error) {
      for (const file of group.files) print(`[error] ${file}: ${error.message.split("\n")[0]}`);
      broken += group.files.length;
    }
  }
  const checked = groups.reduce((sum, group) => sum + group.files.length, 0);
  if (broken > 0) return 2;
  if (unformatted > 0) {
    print(`[warn] Code style issues found in ${unformatted} file(s). Run Prettier with --write to fix.`);
    return 1;
  }
  print(`All ${checked} matched files use Prettier code style (${groups.length} distinct).`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const named = process.argv.slice(2);
  const files = named.length > 0 ? named : codeFiles();
  if (files === undefined) {
    const prettierBin = path.join(REPO_ROOT, "node_modules", ".bin", "prettier");
    const glob = "**/*.{ts,mts,cts,js,mjs,cjs}";
    process.exitCode = spawnSync(prettierBin, ["--check", glob], { cwd: REPO_ROOT, stdio: "inherit" }).status ?? 2;
  } else {
    process.exitCode = await formatCheck(files);
  }
}
