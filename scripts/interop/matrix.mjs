// The interop matrix as data: which clients meet which servers in which protocol eras, and what each meeting must give.
// Plain data with no imports of step code, so render.mjs can read it under plain Node.
import { isDeepStrictEqual } from "node:util";

export const MODERN_VERSION = "2026-07-28";

//#region clients
// The hand-written client sends initialize with 2025-11-25 and nothing else: its only era is legacy.
export const CLIENTS = [
  { id: "hand-written", label: "hand-written CLI", eras: ["legacy"] },
  { id: "sdk", label: "SDK client", eras: ["legacy", "auto", "modern"] },
  { id: "inspector", label: "Inspector CLI", eras: ["legacy", "auto", "modern"] },
];
//#endregion

//#region servers
const add = { tool: "add", args: { a: 2, b: 40 }, text: "42" };
// The "SDK server" role offers exactly the hand-written server's tools.
const HAND_WRITTEN_TOOLS = ["add", "echo", "createFile"];
const SDK_RESOURCES_TOOLS = [
  "add",
  "echo",
  "read_file",
  "list_files",
  "write_file",
  "sample_media",
  "add_note",
  "count_slowly",
];

// `modern`: the server answers server/discover with 2026-07-28. The hand-written server and server-everything (SDK v1)
// do not.
export const SERVERS = [
  { id: "hand-written", label: "hand-written", modern: false, tools: HAND_WRITTEN_TOOLS, call: add },
  { id: "sdk", label: "SDK", modern: true, tools: HAND_WRITTEN_TOOLS, call: add },
  { id: "sdk-resources", label: "SDK, every stdio feature", modern: true, tools: SDK_RESOURCES_TOOLS, call: add },
  {
    id: "everything",
    label: "server-everything",
    modern: false,
    tools: ["echo", "get-sum"],
    call: { tool: "get-sum", args: { a: 2, b: 40 }, text: "The sum of 2 and 40 is 42." },
  },
];
//#endregion

//#region expected-failures
// Verified by hand: a pinned client probes server/discover, gets -32601 Method not found, and must not fall back.
const NOT_OFFERED =
  `Version negotiation failed: the server did not offer pinned protocol version ${MODERN_VERSION} ` +
  "via server/discover (no fallback in pin mode)";
const MODERN_FAILURE = {
  sdk: { outcome: "error", code: "ERA_NEGOTIATION_FAILED", error: NOT_OFFERED },
  // The Inspector is built on the same SDK client: the same message, in a JSON envelope on stderr, exit 1.
  inspector: { outcome: "error", exitCode: 1, code: "error", error: NOT_OFFERED },
};
//#endregion

/** Every cell in table order: rows are client × era, columns are servers. */
export function cells() {
  return CLIENTS.flatMap((client) =>
    client.eras.flatMap((era) => SERVERS.map((server) => ({ client: client.id, era, server: server.id }))),
  );
}

export const serverOf = (cell) => SERVERS.find((server) => server.id === cell.server);
export const cellName = (cell) => `${cell.client} ${cell.era} → ${cell.server}`;

//#region expectation
/** What a cell must observe: the call's text and the era the connection ended in, or the one right error. */
export function expectation(cell) {
  const server = serverOf(cell);
  if (cell.era === "modern" && !server.modern) return MODERN_FAILURE[cell.client];
  // The hand-written CLI prints no era, so none is observed; `auto` ends modern only where the server offers it.
  if (cell.client === "hand-written") return { outcome: "ok", text: server.call.text };
  const negotiated = cell.era === "legacy" || !server.modern ? "legacy" : "modern";
  return { outcome: "ok", negotiated, text: server.call.text };
}
//#endregion

/** "ok", "expected failure" (the cell failed exactly as it must), or "broken". */
export function verdict(cell, observed) {
  const expected = expectation(cell);
  if (!isDeepStrictEqual(observed, expected)) return "broken";
  return expected.outcome === "ok" ? "ok" : "expected failure";
}
