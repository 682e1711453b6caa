// The HTTP floor: node's http module answering a JSON-RPC `tools/call` of `add` with the JSON the hand-written server
// sends, and no MCP code: no checks, no sessions, no schema. `http-floor.ts [--wrong]` (41: proves the bench checks).
import { createServer } from "node:http";

const off = process.argv.includes("--wrong") ? -1 : 0;

//#region floor
// It parses the request and writes a fresh answer, as any server must; a malformed request gets a bare 400, which costs
// a try block and nothing per request, and the server keeps serving.
const http = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    try {
      const { id, params } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const text = String(params.arguments.a + params.arguments.b + off);
      const body = JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
      response.writeHead(200, { "content-type": "application/json" }).end(body);
    } catch {
      response.writeHead(400).end();
    }
  });
});
//#endregion

http.listen(0, "127.0.0.1", () =>
  console.error(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`),
);
process.once("SIGTERM", () => {
  http.close();
  http.closeAllConnections();
});
