// Runs step N's committed tests against a learner's folder: a temporary copy beside it gets step N's test files in
// place of the learner's, then tsc and vitest run there together. The learner's folder is only ever read.
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isTestFile, listStepFiles, readStepFile, REPO_ROOT } from "../shared/repo.mjs";
import { startTracked, trackFolder } from "./cleanup.mjs";
import { checkResults, cleanMessage, typeErrorsOf } from "./test-results.mjs";

const require = createRequire(path.join(REPO_ROOT, "package.json"));
const binOf = (name, bin) => path.join(path.dirname(require.resolve(`${name}/package.json`)), bin);
const CONFIG = fileURLToPath(new URL("./vitest.config.mjs", import.meta.url));
const REPORTER = fileURLToPath(new URL("./vitest-reporter.mjs", import.meta.url));
// Test-only: a short bound, so that the runner's own tests see a hang reported in seconds.
export const TEST_TIMEOUT_MS = Number(process.env.LEARN_MCP_TEST_TIMEOUT_MS) || 30_000;
const RUN_TIMEOUT_MS = 10 * 60_000;

/** The learner's test files that are not step N's: changed, missing or their own; the check runs step N's. */
export function ownTestFiles(step, folder) {
  const theirs = listStepFiles(folder).filter(isTestFile);
  const ours = listStepFiles(step.dir).filter(isTestFile);
  const differ = ours.filter((rel) => readStepFile(folder, rel) !== readStepFile(step.dir, rel));
  return [...differ, ...theirs.filter((rel) => !ours.includes(rel))].sort();
}

/** A copy of the folder beside it, with step N's test files in place of the learner's and node_modules linked. */
function checkCopy(step, folder) {
  const copy = mkdtempSync(path.join(path.dirname(folder), `.check-${step.folder}-`));
  const release = trackFolder(copy);
  const keep = (source) => {
    const rel = path.relative(folder, source).split(path.sep).join("/");
    return rel === "" || (rel !== "node_modules" && !isTestFile(rel));
  };
  cpSync(folder, copy, { recursive: true, verbatimSymlinks: true, filter: keep });
  for (const rel of listStepFiles(step.dir).filter(isTestFile)) {
    mkdirSync(path.dirname(path.join(copy, rel)), { recursive: true });
    copyFileSync(path.join(step.dir, rel), path.join(copy, rel));
  }
  symlinkSync(path.relative(copy, path.join(step.dir, "node_modules")), path.join(copy, "node_modules"));
  return { copy, release };
}

function testEnv(report) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "FORCE_COLOR"),
  );
  return { ...env, NO_COLOR: "1", LEARN_MCP_CHECK_REPORT: report };
}

/**
 * Type-checks and tests the folder with step N's tests. Resolves with { syntaxErrors, typeErrors, tests, fileErrors,
 * unhandled, crashed, leftProcesses }; a syntax error stops the tests, which would only repeat it in every test's
 * words.
 */
export async function runStepTests(step, folder, { testTimeoutMs = TEST_TIMEOUT_MS } = {}) {
  const { copy, release } = checkCopy(step, folder);
  try {
    const report = path.join(copy, ".check-report.json");
    const env = testEnv(report);
    const tsc = startTracked(
      process.execPath,
      [binOf("typescript", "bin/tsc"), "--noEmit", "-p", "tsconfig.json", "--pretty", "false"],
      { cwd: copy, env, timeoutMs: RUN_TIMEOUT_MS },
    );
    const bound = String(testTimeoutMs);
    const vitestArgs = [
      "run",
      "--config",
      CONFIG,
      "--root",
      copy,
      `--reporter=${REPORTER}`,
      `--testTimeout=${bound}`,
      `--hookTimeout=${bound}`,
      `--teardownTimeout=${bound}`,
    ];
    const vitest = startTracked(process.execPath, [binOf("vitest", "vitest.mjs"), ...vitestArgs], {
      cwd: copy,
      env,
      timeoutMs: RUN_TIMEOUT_MS,
    });
    const errors = typeErrorsOf((await tsc.done).stdout);
    const syntaxErrors = errors.filter((error) => error.code < 2000);
    if (syntaxErrors.length > 0) {
      await vitest.stop();
      await vitest.done;
      return { syntaxErrors, typeErrors: [], tests: [], fileErrors: [], unhandled: [] };
    }
    const run = await vitest.done;
    const parsed = existsSync(report) ? checkResults(JSON.parse(readFileSync(report, "utf8")), copy) : undefined;
    const crashed =
      parsed === undefined
        ? cleanMessage(run.timedOut ? "the tests did not finish within 10 minutes" : run.stderr || run.stdout, copy)
        : undefined;
    return {
      syntaxErrors: [],
      typeErrors: errors,
      ...(parsed ?? { tests: [], fileErrors: [], unhandled: [] }),
      crashed,
      leftProcesses: run.leftProcesses,
    };
  } finally {
    release();
  }
}
