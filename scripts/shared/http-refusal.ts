// The two pieces of HTTP the scripts' own MCP servers (the bench's SDK rows and the conformance harness) share with
// the tutorial's servers: which path a request-target names, and a refusal written as a JSON-RPC error body.
import type { ServerResponse } from "node:http";

/** The path of an origin-form request-target ("/mcp?x=1" is "/mcp"), or undefined for "//host/x", "*" or a URL. */
export const pathOf = (target = "/") =>
  /^\/(?!\/)/.test(target) && URL.canParse(target, "http://localhost")
    ? new URL(target, "http://localhost").pathname
    : undefined;

/** Ends `response` with `status` and a JSON-RPC error carrying `message`, and closes the connection after it. */
export function refuse(response: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null });
  response
    .writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      connection: "close",
    })
    .end(body);
}
