// A message board every worker shares: state that belongs to the application, kept where all processes reach it
// (a file here; a database in production). post_message appends to it, and board://messages reads the latest.
import { appendFileSync, readFileSync } from "node:fs";
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

export const BOARD_URI = "board://messages";
const SHOWN = 20;

export interface Board {
  file: string;
  /** Called after each post: publishes resources/updated for BOARD_URI to every listener, in any worker. */
  changed: () => void;
}

const latest = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean).slice(-SHOWN);

export function registerBoard(server: McpServer, board: Board): void {
  server.registerTool(
    "post_message",
    { description: "Posts a message on the shared board.", inputSchema: z.strictObject({ text: z.string().min(1).max(500) }) },
    ({ text }) => {
      appendFileSync(board.file, `${JSON.stringify(text)}\n`); // one short append: whole lines, whichever worker writes
      board.changed();
      return { content: [{ type: "text", text: "Posted." }] };
    },
  );
  server.registerResource("board", BOARD_URI, { title: `The board's latest ${SHOWN} messages`, mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: latest(board.file).map((line) => JSON.parse(line) as string).join("\n") }],
  }));
}
