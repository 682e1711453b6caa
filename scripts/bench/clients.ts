// The client kinds behind one small interface: start the server, call `echo`, stop.
// The raw client frames, stringifies and parses like a real one, but pairs answers by order instead of by id.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { splitLines, writeBatched } from "./lines.ts";
import type { ClientKind, ServerSpec } from "./pairs.ts";

// The hand-written client, before and after the speed-ups, is found through the role table; this is the part of its
// interface the bench uses. Both are loaded up front, so neither pair's timed cold start includes loading the module.
interface McpClientLike {
  connect(): Promise<unknown>;
  listTools(): Promise<unknown>;
  callTool(name: string, args: object): Promise<CallToolResult>;
  close(): Promise<void>;
  readonly pid: number | undefined;
}
type McpClientClass = new (command: string, args: string[], options: { timeoutMs: number }) => McpClientLike;
const load = async (role: string) => ((await import(roleProgram(role))) as { McpClient: McpClientClass }).McpClient;
const McpClients = {
  hand: await load("hand-written client"),
  "hand-before": await load("hand-written client before the speed-ups"),
};

export interface BenchClient {
  /** Spawns the server and resolves with its `tools/list` answer (the raw echo: its first echoed line). */
  start(): Promise<void>;
  /** Calls the `echo` tool; resolves with the text that came back. */
  echo(text: string): Promise<string>;
  serverPid(): number;
  close(): Promise<void>;
}

function firstText(result: { content: { type: string; text?: string }[]; isError?: boolean }): string {
  const text = result.content[0]?.text;
  if (result.isError || typeof text !== "string")
    throw new Error(`echo failed: ${JSON.stringify(result).slice(0, 200)}`);
  return text;
}

//#region raw
class RawClient implements BenchClient {
  #child: ChildProcessWithoutNullStreams | undefined;
  #waiting: ((line: string) => void)[] = [];
  #nextId = 1;
  constructor(
    private readonly server: ServerSpec,
    private readonly batched: boolean,
  ) {}

  async start(): Promise<void> {
    this.#child = spawn(this.server.command, this.server.args);
    this.#child.stderr.resume();
    this.#child.stdout.on(
      "data",
      splitLines((line) => this.#waiting.shift()?.(line.toString("utf8", 0, line.length - 1))),
    );
    await this.#request({ jsonrpc: "2.0", id: this.#nextId++, method: "tools/list" });
  }

  async echo(text: string): Promise<string> {
    const params = { name: "echo", arguments: { message: text } };
    const answer = (await this.#request({ jsonrpc: "2.0", id: this.#nextId++, method: "tools/call", params })) as {
      params: typeof params;
    };
    return answer.params.arguments.message;
  }

  #request(message: object): Promise<unknown> {
    return new Promise((resolve) => {
      this.#waiting.push((line) => resolve(JSON.parse(line)));
      const line = JSON.stringify(message) + "\n";
      if (this.batched) writeBatched(this.#child!.stdin, line);
      else this.#child!.stdin.write(line);
    });
  }

  serverPid = () => this.#child!.pid!;

  async close(): Promise<void> {
    const closed = once(this.#child!, "close");
    this.#child!.stdin.end();
    await closed;
  }
}
//#endregion

//#region hand
class HandClient implements BenchClient {
  #client: McpClientLike | undefined;
  constructor(
    private readonly McpClient: McpClientClass,
    private readonly server: ServerSpec,
  ) {}

  // McpClient spawns its server in its constructor, so it is built here, where the cold start is timed.
  async start(): Promise<void> {
    this.#client = new this.McpClient(this.server.command, this.server.args, { timeoutMs: 120_000 });
    await this.#client.connect();
    await this.#client.listTools();
  }

  async echo(text: string): Promise<string> {
    return firstText(await this.#client!.callTool("echo", { message: text }));
  }

  serverPid = () => this.#client!.pid!;
  close = async () => this.#client?.close();
}
//#endregion

//#region sdk
class SdkClient implements BenchClient {
  #client = new Client({ name: "learn-mcp-bench", version: "0.1.0" });
  #transport: StdioClientTransport;
  constructor(server: ServerSpec) {
    // Piped and drained rather than inherited, so server logs do not land in the bench's table.
    this.#transport = new StdioClientTransport({ command: server.command, args: server.args, stderr: "pipe" });
    this.#transport.stderr?.on("data", () => {});
  }

  async start(): Promise<void> {
    await this.#client.connect(this.#transport);
    await this.#client.listTools();
  }

  async echo(text: string): Promise<string> {
    const result = await this.#client.callTool({ name: "echo", arguments: { message: text } }, { timeout: 120_000 });
    return firstText(result as CallToolResult & { content: { type: string; text?: string }[] });
  }

  serverPid = () => this.#transport.pid!;
  close = () => this.#client.close();
}
//#endregion

export function createClient(kind: ClientKind, server: ServerSpec): BenchClient {
  if (kind === "raw" || kind === "raw-batched") return new RawClient(server, kind === "raw-batched");
  return kind === "sdk" ? new SdkClient(server) : new HandClient(McpClients[kind], server);
}
