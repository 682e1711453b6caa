// The stdio transport through McpClient: a server that dies, a command that cannot start, and close() on a whole group.
// Each case must end without a process left behind, the wrapper's grandchild included.
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpClient } from "./client.ts";
import { isRunning } from "./test/processes.ts";

vi.setConfig({ testTimeout: 30_000 });

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close(200)));
});

function start(file: string, ...args: string[]): McpClient {
  const client = new McpClient(process.execPath, [fixture(file), ...args], { timeoutMs: 5000 });
  clients.push(client);
  return client;
}

describe("server death", () => {
  it("fails every pending request at once with the exit code and the stderr tail", async () => {
    const client = start("fake-server.mjs");
    await client.connect();
    const started = Date.now();
    const slow = client.callTool("sleep", { ms: 4000 });
    const fatal = client.callTool("die", { code: 3, why: "disk on fire" });
    const results = await Promise.allSettled([slow, fatal]);
    expect(Date.now() - started).toBeLessThan(1000);
    const expected = "server exited with code 3; its stderr ended with:\nfirst words\nfatal: disk on fire";
    expect(results).toEqual([
      { status: "rejected", reason: new Error(expected) },
      { status: "rejected", reason: new Error(expected) },
    ]);
    await expect(client.listTools()).rejects.toThrow(expected);
  });

  it("names the signal that killed the server", async () => {
    const client = start("fake-server.mjs");
    await client.connect();
    const pending = client.callTool("sleep", { ms: 4000 });
    process.kill(client.pid!, "SIGKILL");
    await expect(pending).rejects.toThrow(/^server was killed by SIGKILL$/);
  });

  it("reports a server command that cannot start", async () => {
    const client = new McpClient("/no/such/server", []);
    clients.push(client);
    await expect(client.connect()).rejects.toThrow("server could not be started: spawn /no/such/server ENOENT");
  });
});

describe("close()", () => {
  it("removes a wrapper that ignores SIGTERM and the server it started", async () => {
    const client = start("wrapper.mjs");
    const grandchild = Number((await client.connect()).serverInfo.version); // the fake server reports its pid
    const wrapper = client.pid!;
    expect(grandchild).not.toBe(wrapper);
    expect([isRunning(wrapper), isRunning(grandchild)]).toEqual([true, true]);
    await client.close(200);
    expect([isRunning(wrapper), isRunning(grandchild)]).toEqual([false, false]);
  });

  it("lets a well-behaved server leave on its own when stdin ends, and leaves no timer behind", async () => {
    const client = start("fake-server.mjs");
    await client.connect();
    const started = Date.now();
    await client.close(2000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(isRunning(client.pid!)).toBe(false);
    // The grace timer is cleared once the server is gone, so nothing keeps a CLI alive after its work is done.
    const timers = process.getActiveResourcesInfo().filter((kind) => kind === "Timeout");
    expect(timers.length).toBeLessThanOrEqual(1); // vitest's own test timeout
  });
});

describe("a host that exits without close()", () => {
  it("takes the server's whole group with it, the wrapper's server included", async () => {
    // A host of its own: it starts the wrapper, connects and exits at once, as process.exit or an error would.
    const host = [
      `import { McpClient } from ${JSON.stringify(new URL("./client.ts", import.meta.url).href)};`,
      `const client = new McpClient(process.execPath, [${JSON.stringify(fixture("wrapper.mjs"))}]);`,
      "const { serverInfo } = await client.connect();",
      "console.log(client.pid, serverInfo.version);",
      "process.exit(0);",
    ].join("\n");
    const args = ["--import", import.meta.resolve("tsx"), "--input-type=module", "--eval", host];
    const { stdout } = await promisify(execFile)(process.execPath, args);
    const [wrapper, grandchild] = stdout.trim().split(" ").map(Number);
    expect(grandchild).not.toBe(wrapper);
    // SIGKILL is delivered at once, but ps may see a process for a moment more.
    for (let tries = 0; tries < 50 && (isRunning(wrapper!) || isRunning(grandchild!)); tries++) await sleep(20);
    expect([isRunning(wrapper!), isRunning(grandchild!)]).toEqual([false, false]);
  });
});
