// The harness's processes. Every child leads its own process group, so stopping a group also stops what the child
// started (the bridge's servers, the suite's clients), even after the child itself has exited.
import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { signalGroup } from "../../steps/runner/shared/processes.mjs";
import { spawnInGroup } from "../shared/process-group.mjs";

const groups = new Set<number>();

export function start(command: string, args: string[], cwd: string): ChildProcess {
  const child = spawnInGroup(command, args, { cwd });
  if (child.pid !== undefined) groups.add(child.pid);
  return child;
}

/** SIGTERM to every group started, then SIGKILL to those with anything left 5 s later. */
export async function stopAll(): Promise<void> {
  for (const group of groups) if (!signalGroup(group, "SIGTERM")) groups.delete(group);
  // Signal 0 only asks: false once nothing is left in the group.
  for (let waited = 0; waited < 5000 && [...groups].some((group) => signalGroup(group, 0)); waited += 50)
    await sleep(50);
  for (const group of groups) signalGroup(group, "SIGKILL");
  groups.clear();
}

/** Starts a server and resolves with the URL from its `listening on …` line on stderr. */
export function startServer(name: string, command: string, args: string[], cwd: string): Promise<string> {
  const child = start(command, args, cwd);
  let log = "";
  child.stdout!.resume();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} printed no listening line in 30 s:\n${log}`)), 30_000);
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      log = (log + text).slice(-20_000);
      const url = /listening on (http:\/\/\S+)/.exec(log)?.[1];
      if (url) (clearTimeout(timer), resolve(url));
    });
    child.on("exit", (status) => reject(new Error(`${name} exited (status ${status}) before it listened:\n${log}`)));
  });
}
