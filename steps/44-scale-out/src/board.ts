// A message board every worker shares: state that belongs to the application, kept where all processes reach it
// (a file here; a database in production). post_message appends to it, and board://messages reads the latest.
import { appendFileSync, readFileSync, renameSync, statSync } from "node:fs";
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

export const BOARD_URI = "board://messages";
const SHOWN = 20;
/** Past this size the board starts a new file (the old one kept as `<file>.1`), so that a read never costs more. */
export const MAX_BOARD_BYTES = 256 * 1024;

export interface Board {
  file: string;
  /** Called after each post: publishes resources/updated for BOARD_URI to every listener, in any worker. */
  changed: () => void;
}

// a+ makes the file anew when a post has just moved it; until posts come, the board shows fewer messages.
const latest = (file: string) =>
  readFileSync(file, { encoding: "utf8", flag: "a+" }).split("\n").filter(Boolean).slice(-SHOWN);

export function registerBoard(server: McpServer, board: Board): void {
  server.registerTool(
    "post_message",
    {
      description: "Posts a message on the shared board.",
      inputSchema: z.strictObject({ text: z.string().min(1).max(500) }),
    },
    ({ text }) => {
      appendFileSync(board.file, `${JSON.stringify(text)}\n`); // one short append: whole lines, whichever worker writes
      // Two workers may both find it over the bound: the second then moves a new, short file, and a few posts are lost.
      if ((statSync(board.file, { throwIfNoEntry: false })?.size ?? 0) > MAX_BOARD_BYTES)
        renameSync(board.file, `${board.file}.1`);
      board.changed();
      return { content: [{ type: "text", text: "Posted." }] };
    },
  );
  server.registerResource(
    "board",
    BOARD_URI,
    { title: `The board's latest ${SHOWN} messages`, mimeType: "text/plain" },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "text/plain",
          text: latest(board.file)
            .map((line) => JSON.parse(line) as string)
            .join("\n"),
        },
      ],
    }),
  );
}
