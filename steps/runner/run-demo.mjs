// Runs a step's demo (src/main.ts under tsx) and exits with its status; with --wire, also shows its JSON-RPC traffic.
// The demo gets its own process group so Ctrl-C reaches only the runner, which then stops the whole tree itself.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { killTree, stopGroup } from "./shared/processes.mjs";
import { openWireLog } from "./wire-log.mjs";

const wirePreload = new URL("./wire.mjs", import.meta.url).href;
const demoPreload = new URL("./demo-preload.mjs", import.meta.url).href;
// A shell's exit status for a process ended by each signal: 128 + the signal's number.
const SIGNAL_EXIT = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143, SIGPIPE: 141 };

function demoEnv(wireLog) {
  if (!wireLog) return process.env;
  const { MCP_WIRE_LABEL, ...env } = process.env;
  // NODE_OPTIONS carries the preload into Node processes the demo starts, and into theirs.
  const nodeOptions = [env.NODE_OPTIONS, `--import=${wirePreload}`].filter(Boolean).join(" ");
  return { ...env, NODE_OPTIONS: nodeOptions, MCP_WIRE_LOG: wireLog.path };
}

function startDemo(step, tsxLoader, wireLog, demoArgs) {
  const preload = wireLog ? ["--import", wirePreload] : [];
  return spawn(
    process.execPath,
    ["--import", demoPreload, ...preload, "--import", tsxLoader, "src/main.ts", ...demoArgs],
    {
      cwd: step.dir,
      stdio: ["inherit", wireLog ? wireLog.appendFd : "inherit", "inherit"],
      env: demoEnv(wireLog),
      detached: true,
    },
  );
}

/** Resolves with the demo's exit status, or 130/143 once the runner was interrupted and the tree is stopped. */
function waitForDemo(demo, step) {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = async (signalName) => {
      if (stopping) return; // A second Ctrl-C while stopping changes nothing: the grace period is short.
      stopping = true;
      // Up to 5 s to run its exit handlers (its temporary folders) before SIGKILL: on a loaded machine 2 s was short.
      if (demo.pid !== undefined) await killTree(demo.pid, 5000);
      resolve(SIGNAL_EXIT[signalName]);
    };
    for (const name of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(name, () => stop(name));
    // Our reader went away (`| head`): with --wire the demo's output passes through us, so stop it as SIGPIPE would.
    process.stdout.on("error", () => stop("SIGPIPE"));
    demo.on("error", (error) => {
      console.error(`Could not start the demo of step ${step.id}: ${error.message}`);
      resolve(1);
    });
    demo.on("exit", async (code, signal) => {
      if (stopping) return;
      // A demo that failed, or forgot, may leave a server it started still running in its group: stop it too.
      if (demo.pid !== undefined && (await stopGroup(demo.pid))) {
        console.error(`The demo of step ${step.id} exited and left processes running; the runner stopped them.`);
      }
      // Killed by a signal from elsewhere: report it the way a shell would, 128 + the signal's number.
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

/** Runs the demo to the end and returns the status the runner should exit with. */
export async function runDemo(step, { tsxLoader, wire, wireFilter, demoArgs = [] }) {
  const wireLog = wire ? openWireLog(wireFilter) : undefined;
  const demo = startDemo(step, tsxLoader, wireLog, demoArgs);
  wireLog?.closeAppend(); // The demo holds its own copy; ours would only keep the file open.
  const status = await waitForDemo(demo, step);
  if (wireLog && !wireLog.finish() && status === 0) {
    console.log(`(--wire: step ${step.id} sent no JSON-RPC message over stdio.)`);
  }
  return status;
}
