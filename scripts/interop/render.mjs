// `node scripts/interop/render.mjs`: the committed interop results as a markdown table, rows client × era.
// Each cell is judged again against the matrix, so a results file edited by hand cannot show a wrong outcome as ✓.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { cells, CLIENTS, SERVERS, verdict } from "./matrix.mjs";

const key = (cell) => `${cell.client} ${cell.era} ${cell.server}`;

function failureText(client, { exitCode, code, error }) {
  return `${client.label}: ${exitCode === undefined ? code : `exit ${exitCode}, error code "${code}"`}: ${error}`;
}

//#region cell
// A failure's full text goes to a numbered note under the table; identical texts share one number.
function showCell(cell, byCell, notes) {
  const note = (text) => {
    if (!notes.includes(text)) notes.push(text);
    return `[${notes.indexOf(text) + 1}]`;
  };
  const client = CLIENTS.find((candidate) => candidate.id === cell.client);
  if (!byCell.has(key(cell))) return "✗ not run";
  const { client: _client, era: _era, server: _server, ...observed } = byCell.get(key(cell));
  const judged = verdict(cell, observed);
  if (judged === "ok") return `✓ ${observed.negotiated ?? "ok"}`;
  const short = observed.exitCode === undefined ? observed.code : `exit ${observed.exitCode}`;
  if (judged === "expected failure") return `expected: ${short} ${note(failureText(client, observed))}`;
  return `✗ ${note(`${client.label}, ${cell.era} era, server ${cell.server}: observed ${JSON.stringify(observed)}`)}`;
}
//#endregion

//#region table
/** The table, its legend and its notes, from the rows of results.json. */
export function render(results) {
  const byCell = new Map(results.map((row) => [key(row), row]));
  const notes = [];
  const header = ["client · era", ...SERVERS.map((server) => server.label)];
  const rows = CLIENTS.flatMap((client) =>
    client.eras.map((era) => {
      const row = cells().filter((cell) => cell.client === client.id && cell.era === era);
      return [`${client.label} · ${era}`, ...row.map((cell) => showCell(cell, byCell, notes))];
    }),
  );
  // Padded columns, so the table also reads well as plain text in the chapter's code block.
  const widths = header.map((_, column) => Math.max(...[header, ...rows].map((line) => line[column].length)));
  const line = (texts) => `| ${texts.map((text, column) => text.padEnd(widths[column])).join(" | ")} |`;
  return [
    ...[header, widths.map((width) => "-".repeat(width)), ...rows].map(line),
    "",
    "✓ legacy / ✓ modern: listed the tools and called one; the era the connection ended in.",
    "✓ ok: the same, for the hand-written CLI, which prints no era.",
    ...notes.map((text, index) => `[${index + 1}] ${text}`),
  ].join("\n");
}
//#endregion

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(render(JSON.parse(readFileSync(new URL("./results.json", import.meta.url), "utf8"))));
}
