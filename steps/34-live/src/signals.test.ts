// exitOnSignals in a host of its own: every signal after the first changes nothing, and a stop that hangs is given
// up at the deadline, with a line that says so.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const signals = fileURLToPath(new URL("./signals.ts", import.meta.url));

/** A host that runs `script` after importing exitOnSignals; resolves once it printed `ready`. */
async function host(script: string) {
  const code = `import { exitOnSignals } from ${JSON.stringify(signals)}; ${script}; setInterval(() => {}, 1000); console.log("ready");`;
  const child = spawn(process.execPath, ["--import", import.meta.resolve("tsx"), "--input-type=module", "-e", code], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", stderr: "" };
  child.stdout.setEncoding("utf8").on("data", (text: string) => (output.stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (output.stderr += text));
  // "close", not "exit": it comes once stdout and stderr have ended, so all the host printed is in `output` by then.
  const exited = once(child, "close");
  const printed = (text: string) =>
    new Promise<void>((resolve) => child.stdout.on("data", () => output.stdout.includes(text) && resolve()));
  await printed("ready");
  return { child, output, exited, printed };
}

test("SIGTERM and SIGHUP while stopping after a SIGINT change nothing: one exit, SIGINT's status", async () => {
  const { child, output, exited, printed } = await host(
    'exitOnSignals().push(() => (console.log("stopping"), new Promise((resolve) => setTimeout(() => (console.log("stopped"), resolve()), 500))))',
  );
  child.kill("SIGINT");
  await printed("stopping");
  child.kill("SIGTERM");
  child.kill("SIGHUP");
  child.kill("SIGINT");
  expect(await exited).toEqual([130, null]);
  expect(output.stdout).toBe("ready\nstopping\nstopped\n");
}, 30_000);

test("a stop that never ends is given up at the deadline, and the host says so", async () => {
  const { child, output, exited } = await host("exitOnSignals(300).push(() => new Promise(() => {}))");
  child.kill("SIGTERM");
  expect(await exited).toEqual([143, null]);
  expect(output.stderr).toBe("still stopping 300 ms after SIGTERM: exiting anyway\n");
}, 30_000);
