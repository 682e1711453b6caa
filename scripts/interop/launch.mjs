// How the matrix starts its programs (each server and CLI a real child process of this Node, by absolute path)
// and finds any that a cell left running. The TypeScript programs run as bundles built once per run (bundlePrograms).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { canReadProc, commandLine, environment, readStat, snapshotPids } from "../../steps/runner/shared/processes.mjs";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { bundleForNode } from "../shared/bundle.mjs";
import { runInGroup } from "../shared/process-group.mjs";

//#region commands
const require = createRequire(import.meta.url);
const peer = (name) => path.dirname(require.resolve(`@modelcontextprotocol/${name}/package.json`));
const inspectorPackage = JSON.parse(readFileSync(path.join(peer("inspector"), "package.json"), "utf8"));
export const inspectorBin = path.join(peer("inspector"), inspectorPackage.bin.inspector);
const ROLES = {
  cli: "hand-written CLI",
  "hand-written": "hand-written server",
  sdk: "SDK server",
  "sdk-resources": "SDK server, every stdio feature",
};

/**
 * Bundles each TypeScript program the matrix starts into `dir`, from the file the role table names; resolves with
 * { id: bundle path }. A cell starts up to four of them: under tsx each start costs 0.6–1.3 s of CPU, as one plain
 * JavaScript file 0.15–0.4 s. The code is the same; esbuild, which tsx uses file by file, joins the files once.
 */
export async function bundlePrograms(dir) {
  const bundles = Object.fromEntries(Object.keys(ROLES).map((id) => [id, path.join(dir, `${id}.mjs`)]));
  await Promise.all(Object.entries(ROLES).map(([id, role]) => bundleForNode(roleProgram(role), bundles[id])));
  return bundles;
}

/** The argv that starts the hand-written CLI, from its bundle among `bundles`. */
export const handWrittenCli = (bundles) => [process.execPath, bundles.cli];

/** The argv that starts a server; `folder` is the sandbox or workspace of the servers that take one. */
export function serverArgv(id, folder, bundles) {
  if (id === "everything") return [process.execPath, path.join(peer("server-everything"), "dist", "index.js"), "stdio"];
  return [process.execPath, bundles[id], folder];
}
//#endregion

//#region run-process
const PROCESS_TIMEOUT_MS = 60_000;

// Past its time a CLI gets SIGINT, which the hand-written one passes on to its server (a process group of its own),
// then SIGKILL for its whole group; the test's leftover check catches anything that still survives.
export async function runProcess(argv, env) {
  const options = { env, timeoutMs: PROCESS_TIMEOUT_MS, interruptMs: 3_000 };
  const { stdout, stderr, status, elapsedMs } = await runInGroup(argv[0], argv.slice(1), options);
  return { stdout, stderr, status, ms: Math.round(elapsedMs) };
}
//#endregion

//#region leftovers
// Every process of a cell carries CELL_TAG in its environment, handed on by each client to the server it starts.
export const CELL_TAG = "LEARN_MCP_INTEROP_CELL";

/**
 * Live processes (not zombies: they have exited) tagged `tag`. Linux only: only /proc shows another process's
 * environment.
 */
export const tagged = (tag) =>
  [...snapshotPids()].filter((pid) => environment(pid).includes(`${CELL_TAG}=${tag}`) && readStat(pid)?.state !== "Z");
let saidNeedsLinux = false;

// Clients stop their servers as they close, but a server may take a moment to exit: wait a little, then kill.
/** The processes tagged `tag` still running after `graceMs`, each killed and returned with its command line. */
export async function survivors(tag, graceMs = 5_000) {
  if (!canReadProc()) {
    if (!saidNeedsLinux)
      console.log("interop: the check for processes a cell left running needs Linux (/proc); skipped");
    saidNeedsLinux = true;
    return [];
  }
  for (let waited = 0; waited < graceMs && tagged(tag).length > 0; waited += 100) await sleep(100);
  const left = tagged(tag).map((pid) => ({ pid, command: commandLine(pid) }));
  for (const { pid } of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // It exited after all.
    }
  }
  return left;
}
//#endregion
