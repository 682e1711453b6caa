// What the bench compares: each pair is one client kind talking to one server over stdio.
// Every server is started the same way, `node --import <tsx loader> <file.ts> <folder>`, so cold starts compare.
import { fileURLToPath } from "node:url";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";

export type ClientKind = "raw" | "raw-batched" | "hand-before" | "hand" | "sdk";
export type ServerKind = "raw" | "raw-batched" | "naive" | "hand-before" | "hand" | "sdk";

// Every server here offers the same `echo` tool, with one argument, `message`.
export interface ServerSpec {
  command: string;
  args: string[];
}

export interface Pair {
  id: string;
  label: string;
  client: ClientKind;
  server: ServerKind;
}

//#region pairs
export const PAIRS: Pair[] = [
  { id: "raw", label: "raw pipe echo", client: "raw", server: "raw" },
  { id: "raw-batched", label: "raw pipe echo, batched", client: "raw-batched", server: "raw-batched" },
  // The three speed-ups of the hand-written server and client, measured in the same run as the code without them.
  {
    id: "hand-before",
    label: "hand client ↔ hand server, before the speed-ups",
    client: "hand-before",
    server: "hand-before",
  },
  { id: "hand", label: "hand client ↔ hand server", client: "hand", server: "hand" },
  { id: "sdk", label: "SDK client ↔ SDK server", client: "sdk", server: "sdk" },
  { id: "hand-sdk", label: "hand client ↔ SDK server", client: "hand", server: "sdk" },
  { id: "sdk-hand", label: "SDK client ↔ hand server", client: "sdk", server: "hand" },
];

// Not part of a normal run: the test uses it to prove that the integrity check catches corruption.
export const NAIVE_PAIR: Pair = { id: "naive", label: "naive pipe echo", client: "raw", server: "naive" };
//#endregion

const tsxLoader = import.meta.resolve("tsx");
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** How to start `kind` serving `folder` (the raw echoes ignore the folder but take it all the same). */
export function serverSpec(kind: ServerKind, folder: string): ServerSpec {
  const start = (file: string, ...extra: string[]) =>
    [process.execPath, ["--import", tsxLoader, file, folder, ...extra]] as const;
  const [command, args] = {
    raw: start(here("./raw-echo.ts")),
    "raw-batched": start(here("./raw-echo.ts"), "--batched"),
    naive: start(here("./raw-echo.ts"), "--naive"),
    "hand-before": start(roleProgram("hand-written server before the speed-ups")),
    hand: start(roleProgram("hand-written server")),
    sdk: start(roleProgram("SDK server")),
  }[kind];
  return { command, args: [...args] };
}
