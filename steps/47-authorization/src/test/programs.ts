// Starts one of this step's programs as a client would: a separate process, its URL read from the line it prints.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

export const tsx = import.meta.resolve("tsx");
/**
 * The absolute path of a program in src/, named as a test in src/ names it ("./server.ts"). Built from the name, so
 * that this file names no folder: a test reaches the programs it names, not every file of src/.
 */
export const programOf = (file: string) => fileURLToPath(new URL(`.${file}`, import.meta.url));

export type Started = Awaited<ReturnType<typeof start>>;
const running = new Set<ChildProcess>();

/**
 * Stops every program started here that still runs: for afterAll, so that a failed or timed-out test leaves none.
 * SIGTERM first, so that a server removes what it made (the primary's board folder); SIGKILL after a second.
 */
export async function stopAll(): Promise<void> {
  const left = [...running];
  const exits = Promise.all(left.map((child) => once(child, "exit")));
  left.forEach((child) => child.kill("SIGTERM"));
  await Promise.race([exits, sleep(1000)]);
  for (const child of running) child.kill("SIGKILL");
}

/**
 * Resolves once the program listens (`url`), or once it has exited without (`url` is then null); `stderr` keeps every
 * line.
 */
export async function start(file: string, args: string[]) {
  const child = spawn(process.execPath, ["--import", tsx, programOf(file), ...args], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stderr: string[] = [];
  const exited = once(child, "exit") as Promise<[number | null]>;
  running.add(child);
  void exited.then(() => running.delete(child));
  const url = await new Promise<string | null>((resolve) => {
    createInterface({ input: child.stderr }).on("line", (line) => {
      stderr.push(line);
      if (line.startsWith("listening on ")) resolve(line.slice("listening on ".length));
    });
    void exited.then(() => resolve(null));
  });
  return { url: url!, child, stderr, exited };
}
