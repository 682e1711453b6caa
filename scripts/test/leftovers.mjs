// Finds what a test run left behind: processes, by reading /proc (Linux only), entries in the run's own temporary
// folder, and the runner tests' fixture folders in the repository. A process matched only by the repository path must
// also be orphaned: a colleague's concurrent run is spared.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { canReadProc, commandLine, environment, readStat, snapshotPids } from "../../steps/runner/shared/processes.mjs";
import { FIXTURE_PREFIX } from "../../steps/runner/test/helpers.mjs";

export const MARKER = "LEARN_MCP_TEST_RUN";
export const canCheck = canReadProc;
export { snapshotPids };

function ancestors(pid) {
  const chain = new Set();
  for (let current = pid; current > 0 && !chain.has(current); current = readStat(current)?.ppid ?? 0)
    chain.add(current);
  return chain;
}

/**
 * Processes started since `before` that still run and belong to this run: they carry MARKER=`marker` in
 * their environment, or mention `root` on their command line while orphaned (parent is init, or a leftover).
 */
export function findLeftovers({ before, marker, root }) {
  const mine = ancestors(process.pid);
  const candidates = new Map();
  for (const pid of snapshotPids()) {
    const info = readStat(pid);
    if (before.has(pid) || mine.has(pid) || info === undefined || info.state === "Z") continue;
    const marked = environment(pid).includes(`${MARKER}=${marker}`);
    const mentionsRoot = root !== undefined && commandLine(pid).includes(root);
    if (marked || mentionsRoot) candidates.set(pid, { pid, ppid: info.ppid, marked, command: commandLine(pid) });
  }
  const isLeftover = (entry, seen = new Set()) => {
    if (entry.marked || entry.ppid === 1 || mine.has(entry.ppid)) return true;
    const parent = candidates.get(entry.ppid);
    return parent !== undefined && !seen.has(parent.pid) && isLeftover(parent, seen.add(entry.pid));
  };
  return [...candidates.values()].filter((entry) => isLeftover(entry)).map(({ pid, command }) => ({ pid, command }));
}

/** SIGKILLs each leftover; one that already exited is not an error. */
export function killLeftovers(leftovers) {
  for (const { pid } of leftovers) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // It exited between the scan and the kill.
    }
  }
}

/**
 * The entries the tests left in `tmp`, the temporary folder (TMPDIR) given to this run alone, sorted. Two caches are
 * meant to stay for the run's later processes, so they are not counted: tsx's compiled files (tsx-<uid>), and from Node
 * 22 on Node's own compile cache (node-compile-cache), which tsc, Prettier and vite turn on when they start.
 */
export function leftInTemp(tmp) {
  return readdirSync(tmp)
    .filter((name) => !/^tsx-\d+$/.test(name) && name !== "node-compile-cache")
    .sort();
}

/**
 * The fixture folders of the runner's tests (steps/runner/.tmp-run-*) under `root`, relative to it and sorted. They sit
 * in the repository so that tsx resolves from them; each test file removes its own when it ends.
 */
export function fixturesIn(root) {
  const runner = path.join(root, "steps", "runner");
  if (!existsSync(runner)) return [];
  return readdirSync(runner)
    .filter((name) => name.startsWith(FIXTURE_PREFIX))
    .sort()
    .map((name) => `steps/runner/${name}`);
}
