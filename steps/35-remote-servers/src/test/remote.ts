// Test helper: the remote fixture server as a child process, its URL read from the line it prints when it listens.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const program = fileURLToPath(new URL("../fixtures/remote-server.mjs", import.meta.url));

/** Starts remote-server.mjs with `token`; resolves with its URL and a stop() that waits for its exit. */
export async function startRemote(token: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [program, token], { stdio: ["pipe", "ignore", "pipe"] });
  const [line] = (await once(createInterface({ input: child.stderr }), "line")) as [string];
  const url = /listening on (\S+)/.exec(line)?.[1];
  if (!url) throw new Error(`remote-server.mjs said: ${line}`);
  const stop = async () => {
    if (child.exitCode === null) {
      child.stdin.end(); // it exits when its stdin ends
      await once(child, "exit");
    }
  };
  return { url, stop };
}
