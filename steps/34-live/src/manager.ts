// The host's side of every configured server: each started over its own transport, its tools offered under one
// qualified name each, a dead server restarted on its next use, and closeAll() leaving no process behind.
import {
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type CallToolResult,
  type Client,
  type Tool,
} from "@modelcontextprotocol/client";
import type { ServerConfig } from "./config.ts";
import { connect, exitReport, listTools, STDERR_QUOTED, why } from "./connection.ts";
import { routeTable, type Route } from "./names.ts";
import { printable } from "./printable.ts";
import { ServerTransport } from "./transport.ts";

export const DEFAULT_TIMEOUT_MS = 15_000;
export const RESTART_WINDOW_MS = 60_000;

//#region state
/** connecting: starting, handshake or tools/list under way. ready: its tools are offered. exited: it died, and the next
 * call to one of its tools starts it again. failed: it did not start, or died again within 60 s of a restart; only
 * reconnect(name) tries again. unsupported: a remote entry. closed: closeAll() ended it. */
export type State = "connecting" | "ready" | "exited" | "failed" | "unsupported" | "closed";
export interface ServerStatus {
  name: string;
  state: State;
  tools: number;
  lastError?: string;
}
export interface ManagerOptions {
  timeoutMs?: number; // for the handshake and for each tools/list
  now?: () => number; // the clock of the 60 s rule
  log?: (line: string) => void; // a server's stderr line, already prefixed with its name
  warn?: (line: string) => void; // a tool offered under another name than its own
  onToolsChanged?: (server: string) => void; // after a list_changed notification was followed by a new tools/list
}

interface ManagedServer {
  config: ServerConfig;
  state: State;
  tools: Tool[];
  lastError?: string;
  client?: Client;
  transport?: ServerTransport;
  starting?: Promise<void>;
  restartedAt?: number;
  listing?: Promise<void>;
  listAgain?: boolean; // a tools/list after list_changed, and whether another came since
}

/** A failed call: `message` is for the user and may quote the server's stderr; `forModel` never does, since what a
 * server writes to its terminal (paths, keys, a stack trace) is not for a model to read. */
export class CallError extends Error {
  constructor(
    message: string,
    readonly forModel: string,
  ) {
    super(message);
  }
}
//#endregion

export class McpManager {
  #servers = new Map<string, ManagedServer>();
  #routes = new Map<string, Route & { definition: Tool }>();
  #names = new Map<string, string>(); // server and tool → the name given, kept while the host runs
  #holdNames = false;
  #stopping: Promise<void>[] = [];
  #timeoutMs: number;
  #now: () => number;

  /** One server for each configuration, none started yet. */
  constructor(
    configs: ServerConfig[],
    readonly options: ManagerOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
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
    // Names are given once all have listed their tools, so colliding names go in server order, not in start order.
    this.#holdNames = true;
    await Promise.all(
      [...this.#servers.values()]
        .filter((server) => server.state !== "unsupported")
        .map((server) => this.#start(server)),
    );
    this.#holdNames = false;
    this.#reroute();
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
      const { client, tools } = await connect(transport, this.#timeoutMs, (client) => this.#refresh(server, client));
      client.onclose = () => this.#died(server, transport);
      Object.assign(server, { state: "ready", client, tools, lastError: undefined });
    } catch (error) {
      this.#stop(transport);
      if (server.transport === transport)
        Object.assign(server, { state: "failed", tools: [], lastError: (error as Error).message });
      return;
    }
    this.#reroute();
  }

  // At most one tools/list per server in flight: the notifications that arrive meanwhile are folded into one more.
  #refresh(server: ManagedServer, client: Client): void {
    if (server.listing) {
      server.listAgain = true;
      return;
    }
    server.listing = this.#relist(server, client).finally(() => (server.listing = undefined));
  }

  async #relist(server: ManagedServer, client: Client): Promise<void> {
    do {
      server.listAgain = false;
      try {
        server.tools = await listTools(client, this.#timeoutMs);
      } catch (error) {
        server.lastError = `tools/list after list_changed failed: ${(error as Error).message}`;
        return;
      }
    } while (server.listAgain);
    this.#reroute();
    this.options.onToolsChanged?.(server.config.name);
  }
  //#endregion

  //#region route
  // Rebuilt whenever a listing changes; a name given is kept (#names), so a tool is warned about once, when named.
  #reroute(): void {
    if (this.#holdNames) return;
    const warn = (line: string) => (this.options.warn ?? console.error)(`warning: ${printable(line)}`);
    this.#routes = routeTable(
      [...this.#servers.values()].map(({ config, tools }) => ({ name: config.name, tools })),
      warn,
      this.#names,
    );
  }

  /**
   * Every tool's route: its qualified name, its server and its own name there, for a user who names tools by server.
   */
  routes(): Route[] {
    return [...this.#routes.values()].map(({ name, server, tool }) => ({ name, server, tool }));
  }

  /** The tools to offer a model, under their qualified names; a failed server's tools are left out. */
  tools(): Tool[] {
    const usable = (route: Route) => ["ready", "exited"].includes(this.#servers.get(route.server)!.state);
    return [...this.#routes.values()].filter(usable).map(({ name, definition }) => ({ ...definition, name }));
  }
  //#endregion

  //#region call
  /** The server and tool a qualified name reaches, for as long as the host runs; throws for a name no server offers. */
  route(name: string): Route {
    const route = this.#routes.get(name);
    if (route !== undefined) return { name, server: route.server, tool: route.tool };
    const down = this.status()
      .filter((server) => server.state === "failed")
      .map((server) => server.name);
    throw new Error(
      `unknown tool "${name}": no server offers it${down.length > 0 ? ` (failed: ${down.join(", ")})` : ""}`,
    );
  }

  /**
   * Calls a tool by its qualified name. Rejects with one precise sentence for an unknown tool or a server that failed.
   */
  async callTool(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const route = this.route(name);
    const server = this.#servers.get(route.server)!;
    if (server.state === "exited") {
      server.restartedAt = this.#now();
      await this.#start(server); // restart on next use; the 60 s rule starts counting here
    } else if (server.state === "connecting") await server.starting;
    const { client, transport } = server;
    if (server.state !== "ready" || !client || !transport)
      throw this.#failure(
        server,
        `server "${route.server}" is ${server.state}${server.lastError ? `: ${server.lastError}` : ""}`,
      );
    try {
      return (await client.callTool({ name: route.tool, arguments: args })) as CallToolResult;
    } catch (error) {
      // A call may run long: it has the SDK's own bound (60 s), not the handshake's.
      throw this.#failure(
        server,
        `tools/call "${route.tool}" on server "${route.server}" failed: ` +
          `${await why(transport, error, DEFAULT_REQUEST_TIMEOUT_MSEC)}`,
      );
    }
  }

  #failure(server: ManagedServer, message: string): CallError {
    // A report made when fewer lines had come may quote some: any report with the server's stderr in it counts.
    const quoted = (server.transport?.stderrTail.length ?? 0) > 0 && message.includes(STDERR_QUOTED);
    return new CallError(
      message,
      quoted ? `the server "${server.config.name}" stopped; its output is on the user's terminal` : message,
    );
  }

  /** Records that a server's transport ended without being asked to. */
  #died(server: ManagedServer, transport: ServerTransport): void {
    if (server.transport !== transport || server.state === "closed") return; // one we ended ourselves
    const again = server.restartedAt !== undefined && this.#now() - server.restartedAt < RESTART_WINDOW_MS;
    const reason = exitReport(transport);
    Object.assign(server, {
      state: again ? "failed" : "exited",
      lastError: again ? `${reason} (again, within 60 s of its restart)` : reason,
    });
  }
  //#endregion

  //#region lifecycle
  /** Starts a server again, whatever its state, and forgets its restarts. */
  async reconnect(name: string): Promise<ServerStatus> {
    const server = this.#servers.get(name);
    if (server === undefined) throw new Error(`no server "${name}" is configured`);
    if (server.state === "unsupported") return this.#status(server);
    await server.starting; // a start under way ends first, so that the new one is not mistaken for it
    if (server.transport) this.#stop(server.transport);
    server.restartedAt = undefined;
    await this.#start(server);
    return this.#status(server);
  }

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
