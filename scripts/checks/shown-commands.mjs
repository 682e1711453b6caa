// Text that shows a command the code defines in one place: the pnpm version (package.json's packageManager) and the
// runner's flags (steps/runner/cli.mjs FLAGS, with the --wire filters). The text is checked against the code.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { FLAGS, USAGE } from "../../steps/runner/cli.mjs";
import { WIRE_FILTER_FLAGS } from "../../steps/runner/wire-filter.mjs";

// The files that show the install or test command with its pnpm version; every chapter is read too.
const SHOWS_PNPM = ["README.md", "CONTRIBUTING.md", ".ci/run", "steps/runner/cli.mjs"];
// The usage text is what --help prints, so it need not name --help itself.
const NOT_SHOWN = new Set(["--help", "-h"]);

const read = (root, rel) => (existsSync(path.join(root, rel)) ? readFileSync(path.join(root, rel), "utf8") : undefined);

/** Every `pnpm@X` shown in the README, CONTRIBUTING, .ci/run, the runner and the chapters is packageManager's. */
export function checkPnpmVersion(root, errors) {
  const manager = JSON.parse(read(root, "package.json") ?? "{}").packageManager;
  if (manager === undefined) return;
  // A packageManager may carry a hash after "+", which no command shows.
  const version = /^pnpm@([^+\s]+)/.exec(manager)?.[1];
  if (version === undefined) return errors.push(`package.json: packageManager must be pnpm@<version>, not ${manager}`);
  const docs = existsSync(path.join(root, "docs")) ? readdirSync(path.join(root, "docs")) : [];
  for (const rel of [...SHOWS_PNPM, ...docs.filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)]) {
    (read(root, rel) ?? "").split("\n").forEach((line, i) => {
      for (const [, shown] of line.matchAll(/pnpm@([\w.+-]+)/g)) {
        const bare = shown.replace(/\.$/, ""); // the end of a sentence
        if (bare !== version)
          errors.push(`${rel}:${i + 1}: shows pnpm@${bare}; package.json's packageManager is ${manager}`);
      }
    });
  }
}

const flagsIn = (text) => new Set(text.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []);

/** The rows of README's table under "## Use the runner", or undefined when there is none. */
function runnerTable(readme) {
  const lines = readme.split("\n");
  const heading = lines.indexOf("## Use the runner");
  if (heading === -1) return undefined;
  const first = lines.findIndex((line, i) => i > heading && line.startsWith("|"));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith("|"));
  return first === -1 ? undefined : lines.slice(first, end === -1 ? undefined : end).join("\n");
}

/** Every flag the runner takes: its own, and the filters of --wire. */
export const RUNNER_FLAGS = new Set([...FLAGS, ...WIRE_FILTER_FLAGS]);

/** What `where` shows that the runner does not take, and what the runner takes that `where` does not show. */
export function flagProblems(where, shown, flags = RUNNER_FLAGS) {
  return [
    ...[...flags]
      .filter((flag) => !NOT_SHOWN.has(flag) && !shown.has(flag))
      .map((flag) => `${where}: ${flag} is missing`),
    ...[...shown].filter((flag) => !flags.has(flag)).map((flag) => `${where}: ${flag} is not a flag the runner takes`),
  ];
}

/** The runner's usage text and README's table of its commands each show every flag it takes, and no other. */
export function checkRunnerFlags(root, errors) {
  errors.push(...flagProblems("steps/runner/cli.mjs: USAGE", flagsIn(USAGE)));
  const readme = read(root, "README.md");
  if (readme === undefined) return;
  const table = runnerTable(readme);
  if (table === undefined) return errors.push('README.md: no table of runner commands under "## Use the runner"');
  errors.push(...flagProblems('README.md: the table under "## Use the runner"', flagsIn(table)));
}
