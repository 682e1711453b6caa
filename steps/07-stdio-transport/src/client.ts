// The hand-written MCP client, its lower half: starts a stdio server and gives its pipes to a JSON-RPC connection.
// It speaks no MCP yet: what it adds is that the server's death, and the client's close, end every waiting request.
import { Connection } from "./connection.ts";
import { StdioTransport } from "./transport.ts";

export class McpClient {
  #transport: StdioTransport;
  #connection: Connection;

  //#region start
  /** Starts `command` with `args` as the server; requests go through `connection`. */
  constructor(command: string, args: string[]) {
    this.#transport = new StdioTransport(command, args);
    const { toServer, fromServer } = this.#transport;
    this.#connection = new Connection(toServer, fromServer, {
      // A connection that failed for good (output closed, a line over the limit) will never work again: stop the
      // server.
      onFailure: () => void this.#transport.close(),
      onClose: () => void this.#transport.whyOutputClosed().then((reason) => this.#serverGone(reason)),
    });
    // A dead server will never answer: fail everything still waiting now, not at each timeout.
    void this.#transport.exited.then((reason) => this.#serverGone(reason));
  }

  /** Fails every waiting request with why the server went, and the end of its stderr. */
  #serverGone(reason: string): void {
    const tail = this.#transport.stderrTail;
    this.#connection.failAll(new Error(`server ${reason}${tail ? `; its stderr ended with:\n${tail}` : ""}`));
  }
  //#endregion

  /** The server's process id, which is also its process group id. */
  get pid(): number | undefined {
    return this.#transport.pid;
  }

  /** The JSON-RPC connection to the server, for raw requests until the client learns MCP's methods. */
  get connection(): Connection {
    return this.#connection;
  }

  /** Stops the server and everything it started; see StdioTransport.close. */
  async close(graceMs?: number): Promise<void> {
    const closing = this.#transport.close(graceMs);
    this.#connection.failAll(new Error("client closed"));
    await closing;
  }
}
