// `pnpm test --changed`: the step tests whose inputs (inputs.mjs) differ from the same file's inputs at HEAD, which is
// exported to a temporary folder with `git archive`, and the tooling's tests when a file of their own differs from
// HEAD. Untracked files count; a step renumbered since HEAD is matched by its slug; a test that is an identical copy
// of one that runs is skipped.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { byCodeUnit, listStepFiles, REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { contentReader, difference, testInputs } from "./inputs.mjs";
import { selectTests } from "./select.mjs";

// Each tooling folder's tests and the files outside it they depend on: every script uses the runner's shared/.
export const TOOLING = {
  scripts: ["scripts/", "steps/runner/shared/", "vitest.config.ts", "pnpm-lock.yaml"],
  "steps/runner": ["steps/runner/", "vitest.config.ts", "pnpm-lock.yaml"],
};

function git(root, args, options = {}) {
  const result = spawnSync("git", ["-C", root, ...args], { maxBuffer: 256 << 20, ...options });
  if (result.status !== 0) throw new Error(`git ${args[0]}: ${String(result.stderr).trim() || result.error?.message}`);
  return result.stdout;
}

/** Calls `use(dir)` with HEAD's tree exported to a temporary folder, removed afterwards. */
function withHead(root, use) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-head-"));
  try {
    const tar = git(root, ["archive", "--format=tar", "HEAD"]);
    const extracted = spawnSync("tar", ["-x", "-C", dir], { input: tar });
    if (extracted.status !== 0) throw new Error(`tar: ${String(extracted.stderr).trim()}`);
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Repository-relative paths that differ from HEAD: changed (staged or not), removed, or untracked and not ignored. */
export function pathsChanged(root) {
  const lines = (buffer) => String(buffer).split("\0").filter(Boolean);
  const changed = lines(git(root, ["diff", "--name-only", "-z", "--no-renames", "--relative", "HEAD"]));
  const untracked = lines(git(root, ["ls-files", "-z", "--others", "--exclude-standard"]));
  return [...new Set([...changed, ...untracked])].sort(byCodeUnit);
}

/** The TypeScript and JavaScript files that differ from HEAD and exist, for the format check; undefined without git. */
export function changedCode(root) {
  try {
    return pathsChanged(root).filter((rel) => /\.[mc]?[jt]s$/.test(rel) && existsSync(path.join(root, rel)));
  } catch {
    return undefined; // the whole check then runs
  }
}

/** HEAD's folder for step `folder`: the same name, or else the same slug, so that a renumbered step is still itself. */
function headFolder(head, folder) {
  if (existsSync(path.join(head, "steps", folder))) return folder;
  const slug = folder.slice(3);
  return readdirSync(path.join(head, "steps")).find((name) => /^\d\d-/.test(name) && name.slice(3) === slug);
}

/** Why the step test `file` (repo-relative) runs against HEAD's tree at `head`, or undefined when its inputs match. */
function whyAgainstHead(root, head, file, reads) {
  const [, folder, ...rest] = file.split("/");
  const rel = rest.join("/");
  const then = headFolder(head, folder);
  if (then === undefined || !listStepFiles(path.join(head, "steps", then)).includes(rel)) return "new since HEAD";
  const now = testInputs(path.join(root, "steps", folder), rel, { root, read: reads.now });
  if (now.unresolved.length > 0) return `unresolved: ${now.unresolved[0]}`;
  const before = testInputs(path.join(head, "steps", then), rel, { root: head, read: reads.head });
  const why = difference(before.inputs, now.inputs);
  return why === undefined ? undefined : `${why} since HEAD`;
}

/**
 * `{ run: [{ file, why }], skipped: [{ file, why }], tooling: [{ folder, why }] }`: the step tests to run, those whose
 * inputs differ from HEAD but equal a test that runs, and the tooling folders whose tests run.
 */
export function selectChanged({ root = REPO_ROOT } = {}) {
  const selection = selectTests({ root });
  const sameAs = new Map(selection.skipped.map(({ file, sameAs: copy }) => [file, copy]));
  const all = [...selection.run, ...selection.skipped].map(({ file }) => file).sort(byCodeUnit);
  const reads = { now: contentReader(), head: contentReader() };
  const differing = new Map();
  withHead(root, (head) => {
    for (const file of all) {
      const why = whyAgainstHead(root, head, file, reads);
      if (why !== undefined) differing.set(file, why);
    }
  });
  const run = [];
  const skipped = [];
  for (const [file, why] of differing) {
    const copy = sameAs.get(file);
    if (copy !== undefined && differing.has(copy)) skipped.push({ file, why: `same as ${copy}, which runs` });
    else run.push({ file, why });
  }
  const changed = pathsChanged(root);
  const tooling = [];
  for (const [folder, inputs] of Object.entries(TOOLING)) {
    const first = changed.find((rel) => inputs.some((input) => rel === input || rel.startsWith(input)));
    if (first !== undefined) tooling.push({ folder, why: `${first} differs from HEAD` });
  }
  return { run, skipped, tooling, total: all.length };
}

/** vitest's positional filters for the selection (see vitestFilters in select.mjs); none when nothing is selected. */
export function changedFilters({ run, tooling }, root = REPO_ROOT) {
  return [...run.map(({ file }) => file), ...tooling.map(({ folder }) => `${path.join(root, folder)}/`)];
}

/** What the test command prints about the selection: one line per test file or folder that runs, and why. */
export function changedReport({ run, skipped, tooling, total }) {
  const unchanged = total - run.length - skipped.length;
  return [
    `test --changed: running ${run.length} of ${total} step test files (${unchanged} with the inputs they had at HEAD)`,
    ...run.map(({ file, why }) => `  run  ${file}: ${why}`),
    ...skipped.map(({ file, why }) => `  skip ${file}: ${why}`),
    ...Object.keys(TOOLING).map((folder) => {
      const selected = tooling.find((entry) => entry.folder === folder);
      return selected
        ? `  run  ${folder}/ tests: ${selected.why}`
        : `  skip ${folder}/ tests: none of their files differ`;
    }),
  ];
}
