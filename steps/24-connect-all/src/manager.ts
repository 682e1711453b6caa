// The host's side of every configured server: each started at once over its own transport, each failure kept to
// that server and told in one sentence, and closeAll() leaving no process behind.
import type { Client, Tool } from "@modelcontextprotocol/client";
import type { ServerConfig } from "./config.ts";
import { connect } from "./connection.ts";
import { ServerTransport } from "./transport.ts";

export const DEFAULT_TIMEOUT_MS = 15_000;

//#region state
/** connecting: starting, handshake or tools/list under way. ready: its tools are offered. failed: it did not start.
 * unsupported: a remote entry. closed: closeAll() ended it. */
export type State = "connecting" | "ready" | "failed" | "unsupported" | "closed";
export interface ServerStatus {
  name: string;
  state: State;
  tools: number;
  lastError?: string;
}
export interface ManagerOptions {
  timeoutMs?: number; // for the handshake and for each tools/list
  log?: (line: string) => void; // a server's stderr line, already prefixed with its name
}

interface ManagedServer {
  config: ServerConfig;
  state: State;
  tools: Tool[];
  lastError?: string;
  client?: Client;
  transport?: ServerTransport;
  starting?: Promise<void>;
}
//#endregion

export class McpManager {
  #servers = new Map<string, ManagedServer>();
  #stopping: Promise<void>[] = [];
  #timeoutMs: number;

  /** One server for each configuration, none started yet. */
  constructor(
    configs: ServerConfig[],
    readonly options: ManagerOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    for (const config of configs) {
      const remote = config.entry.type === "http";
      this.#servers.set(config.name, {
        config,
        tools: [],
        state: remote ? "unsupported" : "connecting",
        lastError: remote ? "remote (http) servers are not supported yet" : undefined,
      });
    }
  }

  //#region connect
  /** Starts every stdio server at once; resolves when each is ready or has failed. Never rejects for a bad server. */
  async connectAll(): Promise<void> {
    await Promise.all(
      [...this.#servers.values()]
        .filter((server) => server.state !== "unsupported")
        .map((server) => this.#start(server)),
    );
  }

  #start(server: ManagedServer): Promise<void> {
    server.starting ??= this.#connect(server).finally(() => (server.starting = undefined));
    return server.starting;
  }

  async #connect(server: ManagedServer): Promise<void> {
    const { name, entry } = server.config;
    if (entry.type !== "stdio") return;
    const transport = new ServerTransport(name, entry, this.options.log ?? ((line) => console.error(line)));
    Object.assign(server, { state: "connecting", transport });
    try {
      const { client, tools } = await connect(transport, this.#timeoutMs);
      Object.assign(server, { state: "ready", client, tools, lastError: undefined });
    } catch (error) {
      this.#stop(transport);
      if (server.transport === transport)
        Object.assign(server, { state: "failed", tools: [], lastError: (error as Error).message });
    }
  }
  //#endregion

  //#region lifecycle
  /** Starts closing a transport; closeAll() waits for every one started. */
  #stop(transport: ServerTransport): void {
    this.#stopping.push(transport.close());
  }

  /** Ends every server and waits until each process group is empty. */
  async closeAll(): Promise<void> {
    for (const server of this.#servers.values()) {
      if (server.transport) this.#stop(server.transport);
      if (server.state !== "unsupported") server.state = "closed";
    }
    await Promise.all(this.#stopping);
  }

  #status = ({ config, state, tools, lastError }: ManagedServer): ServerStatus => ({
    name: config.name,
    state,
    tools: tools.length,
    ...(lastError ? { lastError } : {}),
  });

  /** The process group of every server started so far, for checks that nothing is left. */
  processGroups(): number[] {
    return [...this.#servers.values()].flatMap((server) => server.transport?.pid ?? []);
  }

  status(): ServerStatus[] {
    return [...this.#servers.values()].map(this.#status);
  }
  //#endregion
}
