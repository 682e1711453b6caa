// The demo stopped halfway, as Ctrl-C stops it: one line says where it was, with no client's stack trace; and the
// demo's HTTP+SSE fixture answers a request line it cannot read instead of dying of it.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, expect, test } from "vitest";
import { leftInGroups } from "./groups.ts";
import { childrenOf, rawHttp } from "./test/bridge.ts";

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-child.pid!, "SIGKILL"); // the whole group: a demo that failed may leave its bridge behind
    } catch {
      // already gone
    }
  }
});

const until = async (condition: () => boolean) => {
  while (!condition()) await sleep(20);
};

/** The demo in a process group of its own, as a shell runs it, with what it printed so far. */
function startDemo() {
  const demo = spawn(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), fileURLToPath(new URL("./main.ts", import.meta.url))],
    {
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  started.push(demo);
  const output = { stdout: "", stderr: "" };
  demo.stdout!.setEncoding("utf8").on("data", (text: string) => (output.stdout += text));
  demo.stderr!.setEncoding("utf8").on("data", (text: string) => (output.stderr += text));
  // "close", not "exit": it comes once stdout and stderr have ended, so all the demo printed is in `output` by then.
  const exited = once(demo, "close") as Promise<[number | null, NodeJS.Signals | null]>;
  return { demo, output, exited };
}

test("Ctrl-C during the demo ends it with one line and status 130, and stops the bridge", async () => {
  const { demo, output, exited } = startDemo();
  await until(() => output.stdout.includes("listening on "));
  process.kill(-demo.pid!, "SIGINT"); // what a terminal does: the whole foreground group
  expect(await exited).toEqual([130, null]);
  expect(output.stderr).toBe("interrupted while using the bridge with the SDK's client\n");
  expect(await leftInGroups([demo.pid!])).toEqual([]);
}, 30_000);

test("a request failing because the bridge stopped first still ends in one line, no stack trace", async () => {
  const { demo, output, exited } = startDemo();
  await until(() => output.stdout.includes("listening on "));
  const bridge = (await childrenOf(demo.pid!)).find(({ command }) => command.includes("server.ts"))!.pid;
  process.kill(bridge, "SIGTERM"); // it closes every connection, then exits: the demo's request fails first
  while ((await childrenOf(demo.pid!)).some(({ pid }) => pid === bridge)) await sleep(20);
  process.kill(demo.pid!, "SIGTERM");
  expect(await exited).toEqual([143, null]);
  expect(output.stderr).toBe("interrupted while using the bridge with the SDK's client\n");
}, 30_000);

test("the HTTP+SSE fixture answers a request-target URL cannot read with 400, and keeps serving", async () => {
  const fixture = spawn(
    process.execPath,
    [fileURLToPath(new URL("./fixtures/legacy-sse-server.mjs", import.meta.url))],
    { detached: true, stdio: ["pipe", "ignore", "pipe"] },
  );
  started.push(fixture);
  const lines = createInterface({ input: fixture.stderr! })[Symbol.asyncIterator]();
  const url = ((await lines.next()).value as string).replace("listening on ", "");
  const statuses = [];
  for (const target of ["//%", "//[", "//:99999", "http://["])
    statuses.push((await rawHttp(url, [`GET ${target} HTTP/1.1`, "Host: localhost"])).status);
  expect(statuses).toEqual([400, 400, 400, 400]);
  const controller = new AbortController();
  const stream = await fetch(url, { headers: { accept: "text/event-stream" }, signal: controller.signal });
  expect([stream.status, stream.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
  controller.abort();
  fixture.stdin!.end();
  expect(await once(fixture, "exit")).toEqual([0, null]);
}, 30_000);
