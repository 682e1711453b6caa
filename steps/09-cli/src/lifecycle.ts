// MCP's lifecycle: the initialize handshake, version negotiation, and the rule that work waits for it.
// Every request that comes too early gets an error at once: a silent server makes a probing client wait.
import { checkParams, InvalidRequest, invalidParams, isObject, JsonRpcError, type Method } from "./jsonrpc.ts";

//#region versions
// Newest first: a client asking for a version not listed here is offered the first one.
// 2025-03-26 is the one revision that allows JSON-RPC batches; 2025-06-18 removed them again.
export const SUPPORTED_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const BATCH_VERSION = "2025-03-26";
//#endregion

export interface Implementation {
  name: string;
  version: string;
}
export interface InitializeResult {
  protocolVersion: string;
  capabilities: Record<string, object>;
  serverInfo: Implementation;
  instructions: string;
}

export class Session {
  /** Set once `initialize` has been answered; undefined before. */
  protocolVersion: string | undefined;

  /** What this server says of itself in its answer to `initialize`. */
  constructor(
    readonly serverInfo: Implementation,
    readonly capabilities: Record<string, object>,
    readonly instructions: string,
  ) {}

  //#region initialize
  handleInitialize(params: unknown): InitializeResult {
    if (this.protocolVersion !== undefined)
      throw new JsonRpcError(InvalidRequest, "Invalid Request: already initialized");
    const usage = "initialize takes {protocolVersion: string, capabilities: object, clientInfo: {name, version}}";
    const { protocolVersion, capabilities, clientInfo } = checkParams(
      params,
      ["protocolVersion", "capabilities", "clientInfo", "_meta"],
      usage,
    );
    if (typeof protocolVersion !== "string" || !isObject(capabilities) || !isObject(clientInfo))
      throw invalidParams(usage);
    // The client's version if we speak it, else our latest: the client then decides whether to go on.
    this.protocolVersion = SUPPORTED_VERSIONS.includes(protocolVersion) ? protocolVersion : SUPPORTED_VERSIONS[0];
    console.error(`[server] initialize: client asked for ${protocolVersion}, answering ${this.protocolVersion}`);
    return {
      protocolVersion: this.protocolVersion,
      capabilities: this.capabilities,
      serverInfo: this.serverInfo,
      instructions: this.instructions,
    };
  }
  //#endregion

  /** `notifications/initialized`: the client has finished the handshake. */
  handleInitialized(): void {
    console.error("[server] the client is initialized");
  }

  //#region gate
  /** Wraps a method so that it answers -32600 until `initialize` has been answered. */
  afterInitialize(method: Method): Method {
    return (params) => {
      if (this.protocolVersion === undefined) {
        throw new JsonRpcError(InvalidRequest, "Invalid Request: send initialize first");
      }
      return method(params);
    };
  }

  /** Whether an array of messages may be answered as a batch right now. */
  acceptsBatches(): boolean {
    return this.protocolVersion === BATCH_VERSION;
  }
  //#endregion
}
