// The bench counts a server's node processes by name: the name must be the executable's, whatever the process calls
// its main thread (Node 24 calls it "MainThread", and process.title renames it on any version).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { serverProcesses, stillRunning } from "./processes.ts";

const children = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  }
});

/** A node process that renames its main thread, as Node 24 does, and says so once it has. */
async function renamed(title) {
  const script = `process.title = ${JSON.stringify(title)}; console.log("ready"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  await once(child.stdout, "data");
  return child;
}

describe("serverProcesses", () => {
  it("names a node process by its executable, not by its main thread's name", async () => {
    const child = await renamed("MainThread");
    const procs = serverProcesses(child.pid);
    expect(procs.map(({ pid, name }) => ({ pid, name }))).toEqual([{ pid: child.pid, name: "node" }]);
    expect(stillRunning(procs)).toEqual(procs);
    child.kill("SIGKILL");
    await once(child, "exit");
    expect(stillRunning(procs)).toEqual([]);
  });
});
