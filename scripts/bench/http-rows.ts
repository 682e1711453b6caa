// What `pnpm bench --http` measures: each row is one server, reached by the same HTTP client, plus the stdio hop the
// bridge adds, reached over a pipe. Every program is started `node --import <tsx loader> <file.ts> …` on 127.0.0.1.
import { fileURLToPath } from "node:url";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import type { Era } from "./http-client.ts";

export interface HttpRow {
  id: string;
  label: string;
  /** How the client speaks to the server; "pipe" is the stdio hop, without HTTP. */
  via: Era | "pipe";
  /**
   * The command that starts the server, `node` taking `flags` (--cpu-prof); an HTTP server prints `listening on URL`.
   */
  command(folder: string, flags: string[]): string[];
}

const tsxLoader = import.meta.resolve("tsx");
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const node = (flags: string[], file: string, ...args: string[]) => [
  process.execPath,
  ...flags,
  "--import",
  tsxLoader,
  file,
  ...args,
];
const handServer = (folder: string, flags: string[]) => node(flags, roleProgram("hand-written server"), folder);
// Cluster workers start with the primary's node flags, so a profile covers them too.
const workers = (count: number): HttpRow => ({
  id: `workers-${count}`,
  label: `SDK in cluster workers, ${count}`,
  via: "modern",
  command: (_, flags) =>
    node(flags, roleProgram("SDK server over HTTP, in workers"), "--port", "0", "--workers", String(count)),
});

//#region rows
export const HTTP_ROWS: HttpRow[] = [
  { id: "stdio", label: "stdio hop: pipe to hand-written server", via: "pipe", command: handServer },
  {
    id: "floor",
    label: "floor: node:http, no MCP",
    via: "floor",
    command: (_, flags) => node(flags, here("./http-floor.ts")),
  },
  {
    id: "bridge",
    label: "bridge → hand-written server",
    via: "session",
    command: (folder, flags) =>
      node(flags, roleProgram("Streamable HTTP bridge"), "--port", "0", "--", ...handServer(folder, flags)),
  },
  {
    id: "least-bridge",
    label: "least bridge → hand-written server",
    via: "session",
    command: (folder, flags) => node(flags, here("./http-least-bridge.ts"), "--", ...handServer(folder, flags)),
  },
  {
    id: "sdk-json",
    label: "SDK createMcpHandler, json",
    via: "modern",
    command: (_, flags) => node(flags, here("./http-sdk.ts"), "json"),
  },
  {
    id: "sdk-sse",
    label: "SDK createMcpHandler, sse",
    via: "modern",
    command: (_, flags) => node(flags, here("./http-sdk.ts"), "sse"),
  },
  workers(1),
  workers(2),
  workers(4),
];

// Not part of a normal run: a floor that answers 41, which the test uses to prove that a wrong answer is caught.
export const WRONG_ROW: HttpRow = {
  id: "floor-wrong",
  label: "floor answering 41",
  via: "floor",
  command: (_, flags) => node(flags, here("./http-floor.ts"), "--wrong"),
};
//#endregion
