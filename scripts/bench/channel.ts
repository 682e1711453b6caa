// The bench's end of a driver process: spawn it, ask one command at a time over IPC, close it.
// A driver that dies fails the command it was running, so a broken pair stops the bench instead of hanging it.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import type { Pair } from "./pairs.ts";

// Answers are plain JSON objects whose fields depend on the command; the caller knows which it asked.
type Answer = Record<string, any>;
type Waiting = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

const driverFile = fileURLToPath(new URL("./driver.ts", import.meta.url));

export class Driver {
  #child: ChildProcess;
  #waiting: Waiting | undefined;
  #exited = false;

  private constructor(
    readonly label: string,
    args: string[],
  ) {
    this.#child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), ...args], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.#child.on("message", (answer: Answer) => {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      if (answer.ok) waiting?.resolve(answer);
      else waiting?.reject(new Error(`${label}: ${answer.error}`));
    });
    this.#child.on("exit", (code, signal) => {
      this.#exited = true;
      this.#waiting?.reject(new Error(`${label}: the driver exited (${signal ?? `code ${code}`})`));
    });
  }

  /** Starts a driver and waits until it has loaded its client code and says it is ready. */
  static spawn(pair: Pair, folder: string): Promise<Driver> {
    return Driver.start(pair.label, [driverFile, pair.client, pair.server, folder]);
  }

  /** The same for any driver program: `args` are its file and its arguments. */
  static async start(label: string, args: string[]): Promise<Driver> {
    const driver = new Driver(label, args);
    await driver.#next();
    return driver;
  }

  ask(command: { op: string; [field: string]: unknown }): Promise<Answer> {
    if (this.#exited) return Promise.reject(new Error(`${this.label}: the driver has exited`));
    const answer = this.#next();
    this.#child.send(command);
    return answer;
  }

  #next(): Promise<Answer> {
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /** Asks the driver to stop its server and leave; kills it if it has not left within 15 s. */
  async close(): Promise<void> {
    if (this.#exited) return;
    const exited = once(this.#child, "exit");
    this.#child.send({ op: "close" });
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  }
}
