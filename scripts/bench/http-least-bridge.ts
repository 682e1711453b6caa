// The least a bridge can do, for comparison: `http-least-bridge.ts -- <stdio server command…>` starts one stdio server,
// writes each POSTed body to it and each line it writes back to the POST whose id it answers. No checks, no sessions,
// no bounds, no streams, no care for a bad peer beyond a 400 for a body that is no JSON: what this row costs, any
// Streamable HTTP bridge in front of a stdio server costs in node; what the tutorial's bridge costs beyond it is what
// its lesson adds.
import { spawn } from "node:child_process";
import { createServer, type ServerResponse } from "node:http";

const command = process.argv.slice(process.argv.indexOf("--") + 1);
const child = spawn(command[0]!, command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
const waiting = new Map<string, ServerResponse>(); // by JSON id: 1 and "1" are different requests
const headers = { "content-type": "application/json", "mcp-session-id": "the-only-session" };
const NEWLINE = Buffer.from("\n");

let partial = "";
child.stdout.setEncoding("utf8").on("data", (text: string) => {
  const lines = (partial + text).split("\n");
  partial = lines.pop()!;
  for (const line of lines) {
    const id = JSON.stringify(JSON.parse(line).id);
    waiting.get(id)?.writeHead(200, headers).end(line);
    waiting.delete(id);
  }
});

const http = createServer((request, response) => {
  if (request.method === "DELETE") return void response.writeHead(204).end();
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks);
    let message;
    try {
      message = JSON.parse(body.toString("utf8"));
    } catch {
      return void response.writeHead(400).end(); // the one care it takes: a body that is no JSON does not end it
    }
    if (message?.id !== undefined && message.method !== undefined) waiting.set(JSON.stringify(message.id), response);
    else response.writeHead(202, headers).end(); // a notification, or an answer: nothing comes back
    child.stdin.write(Buffer.concat([body, NEWLINE]));
  });
});
http.listen(0, "127.0.0.1", () =>
  console.error(`listening on http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`),
);

// The server ends when its stdin does; this process then has nothing left to wait for.
process.once("SIGTERM", () => {
  http.close();
  http.closeAllConnections();
  child.stdin.end();
});
