// connect() against real processes: the handshake and a fresh tools/list, and each way they fail told in one
// sentence, with the server's exit and its last stderr lines.
import { afterEach, expect, test } from "vitest";
import { connect } from "./connection.ts";
import { fixture } from "./test/servers.ts";
import { ServerTransport } from "./transport.ts";

const opened: ServerTransport[] = [];
afterEach(() => Promise.all(opened.splice(0).map((transport) => transport.close())), 30_000);

/** A transport for `command args`; `lines` gets what it prints for the server. */
function transportFor(name: string, command: string, args: string[], lines: string[] = []) {
  const transport = new ServerTransport(name, { type: "stdio", command, args, env: {} }, (line) => lines.push(line));
  opened.push(transport);
  return transport;
}

test("connect() does the handshake and lists the server's tools", async () => {
  const { tools } = await connect(transportFor("v", process.execPath, [fixture("tools.mjs"), "v", "x"]), 10_000);
  expect(tools.map((tool) => tool.name)).toEqual(["x", "setting", "unlock", "noise", "crash"]);
});

test("a server that exits at start is told by its exit code and its last stderr lines", async () => {
  const exits = transportFor("exits", "node", ["-e", "console.error('missing API key'); process.exit(3)"]);
  await expect(connect(exits, 10_000)).rejects.toThrow(
    /^the handshake failed: exited with code 3; stderr: missing API key$/,
  );
});

test("a server that never answers costs the timeout, and says so", async () => {
  const hangs = transportFor("hangs", "node", ["-e", "setInterval(() => {}, 1000)"]);
  await expect(connect(hangs, 500)).rejects.toThrow(/^the handshake failed: no answer within 500 ms$/);
});

test("a command that cannot be started says why", async () => {
  const missing = transportFor("missing", "no-such-command-learn-mcp", []);
  await expect(connect(missing, 10_000)).rejects.toThrow(
    /^the handshake failed: could not be started: spawn no-such-command-learn-mcp ENOENT/,
  );
});

test("what the Client refuses, such as an answer to no request, is printed under the server's name", async () => {
  const lines: string[] = [];
  const { client } = await connect(
    transportFor("noisy", process.execPath, [fixture("tools.mjs"), "noisy"], lines),
    10_000,
  );
  await client.callTool({ name: "noise" });
  expect(lines).toContain(
    '[noisy] Received a response for an unknown message ID: {"jsonrpc":"2.0","id":999999,"result":{}}',
  );
});
