// Test helper: starts the bridge on a free port in front of a command (the fixture server unless told), and speaks
// HTTP to it with fetch, or with node's http module where fetch will not send a header as given.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest, type OutgoingHttpHeaders } from "node:http";
import { connect } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const program = fileURLToPath(new URL("../server.ts", import.meta.url));
export const fixtureServer = [
  process.execPath,
  fileURLToPath(new URL("../fixtures/stdio-server.mjs", import.meta.url)),
];
export const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

export type Bridge = Awaited<ReturnType<typeof startBridge>>;

const running = new Set<ChildProcess>();
/** Stops every bridge still running, and with it its sessions' servers: for afterAll, so that a test that timed out
 * leaves nothing behind. */
export function stopAll(): void {
  for (const child of running) child.kill("SIGTERM");
}

/** `command` null: the bridge's own default, the SDK server with every stdio feature. */
export async function startBridge(command: string[] | null = fixtureServer) {
  const child = spawn(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), program, "--port", "0", ...(command ? ["--", ...command] : [])],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const stderr: string[] = [];
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  running.add(child);
  void exited.then(() => running.delete(child));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stderr }).on("line", (line) => {
      stderr.push(line);
      if (line.startsWith("listening on ")) resolve(line.slice("listening on ".length));
    });
    void exited.then(() => reject(new Error(`the bridge exited:\n${stderr.join("\n")}`)));
  });
  /** Sends one message; `session` adds the Mcp-Session-Id header. */
  const post = (message: unknown, session?: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: "POST",
      headers: { ...JSON_HEADERS, ...(session ? { "mcp-session-id": session } : {}), ...headers },
      body: JSON.stringify(message),
    });
  /** A new session: initialize, then initialized; resolves with its id. */
  const open = async (): Promise<string> => {
    const response = await post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } },
    });
    await response.text();
    const session = response.headers.get("mcp-session-id")!;
    await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).text();
    return session;
  };
  /** The pids of the servers the bridge started, from its log; each leads its own process group. */
  const serverPids = () => stderr.flatMap((line) => /server pid (\d+)/.exec(line)?.[1] ?? []).map(Number);
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return (await exited)[0];
  };
  return { url, child, stderr, post, open, serverPids, stop };
}

/** A request through node's http module, which sends Host, Origin and Content-Length exactly as given. */
export function rawRequest(
  url: string,
  method: string,
  headers: OutgoingHttpHeaders,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * Sends a request line and headers exactly as written (CRLF added) over a socket, and reads the answer until the server
 * closes: for what node's http module refuses to send, such as two Host headers or a request-target `URL` cannot read.
 */
export function rawHttp(url: string, lines: string[], body = ""): Promise<{ status: number; body: string }> {
  const head = [...lines, "Connection: close", `Content-Length: ${Buffer.byteLength(body)}`, "", ""].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1", () => socket.write(head + body));
    let text = "";
    socket
      .setEncoding("utf8")
      .on("data", (chunk: string) => (text += chunk))
      .on("error", reject);
    socket.on("close", () => {
      const [head = "", ...rest] = text.split("\r\n\r\n");
      let body = rest.join("\r\n\r\n");
      // A chunked body: each chunk's size line dropped, as far as this helper needs (the tests' bodies are short).
      if (/^transfer-encoding: chunked$/im.test(head))
        body = body
          .split("\r\n")
          .filter((_, i) => i % 2 === 1)
          .join("");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
  });
}

/**
 * The processes whose parent is `parent`, zombies left out, with their command lines: `ps` reads the same on Linux and
 * macOS.
 */
export async function childrenOf(parent: number): Promise<{ pid: number; command: string }[]> {
  const { stdout } = await promisify(execFile)("ps", [
    "-A",
    "-ww",
    "-o",
    "pid=",
    "-o",
    "ppid=",
    "-o",
    "stat=",
    "-o",
    "args=",
  ]);
  return stdout
    .trim()
    .split("\n")
    .flatMap((line) => {
      const [, pid, ppid, stat, command] = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line) ?? [];
      return Number(ppid) === parent && !stat!.startsWith("Z") ? [{ pid: Number(pid), command: command! }] : [];
    });
}

export const call = (
  id: number | string,
  name: string,
  args: Record<string, unknown> = {},
  _meta?: Record<string, unknown>,
) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...(_meta ? { _meta } : {}) } });
