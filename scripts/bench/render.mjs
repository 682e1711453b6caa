// `node scripts/bench/render.mjs results.json`: the bench's tables and target verdicts, from the file alone.
// Same file, same text: no clock, no locale; units sit in the headers so the docs' normaliser leaves numbers be.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const median = (values) => {
  const sorted = values.filter((value) => typeof value === "number").sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
export const fixed = (value, digits) => (value === null ? "-" : value.toFixed(digits));
export const grouped = (value) => (value === null ? "-" : String(Math.round(value)).replace(/\B(?=(\d{3})+$)/g, ","));
export const byId = (results, id) => results.pairs.find((pair) => pair.id === id);
export const of = (pair, field) => median(pair.rounds.map((round) => round[field]));
const bigIntact = (pair) => {
  const calls = pair.rounds.reduce((sum, round) => sum + round.bigCalls, 0);
  const bad = pair.rounds.reduce((sum, round) => sum + round.corrupted + round.failed, 0);
  return `${calls - bad}/${calls}`;
};

/** Left-aligns the first column and right-aligns the others, two spaces apart. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i])));
  return rows.map((row) => line(row).join("  ").trimEnd()).join("\n");
}

//#region pairs-table
function pairsTable(results) {
  const header = [
    "pair",
    "start ms",
    "p50 µs",
    "p99 µs",
    "calls/s",
    "client µs/call",
    "server µs/call",
    "10 MB ms",
    "intact",
  ];
  const rows = results.pairs.map((pair) => [
    pair.label,
    fixed(of(pair, "coldMs"), 0),
    fixed(of(pair, "p50Us"), 1),
    fixed(of(pair, "p99Us"), 1),
    grouped(of(pair, "callsPerSec")),
    fixed(of(pair, "clientCpuUs"), 2),
    fixed(of(pair, "serverCpuUs"), 2),
    fixed(of(pair, "bigMs"), 0),
    bigIntact(pair),
  ]);
  return table([header, ...rows]);
}
//#endregion

//#region targets
/** Median over the rounds of one pair's figure divided by another's in the same round. */
export function ratio(results, top, bottom, field) {
  const [a, b] = [byId(results, top), byId(results, bottom)];
  if (!a || !b) return null;
  return median(a.rounds.map((round, i) => (b.rounds[i]?.[field] ? round[field] / b.rounds[i][field] : null)));
}

function targets(results) {
  const at = (limit) => (value) => value !== null && value <= limit;
  return [
    ["client CPU per call ÷ raw pipe's", ratio(results, "hand", "raw", "clientCpuUs"), "≤ 1.5×", at(1.5)],
    ["server CPU per call ÷ raw pipe's", ratio(results, "hand", "raw", "serverCpuUs"), "≤ 1.5×", at(1.5)],
    ["client CPU per call ÷ SDK pair's", ratio(results, "hand", "sdk", "clientCpuUs"), "≤ 0.25×", at(0.25)],
    ["server CPU per call ÷ SDK pair's", ratio(results, "hand", "sdk", "serverCpuUs"), "≤ 0.25×", at(0.25)],
    ["round trip p50 ÷ raw pipe's", ratio(results, "hand", "raw", "p50Us"), "≤ 1.5×", at(1.5)],
    [
      "10 MB echo: SDK pair's time ÷ this one's",
      ratio(results, "sdk", "hand", "bigMs"),
      "≥ 2×",
      (v) => v !== null && v >= 2,
    ],
  ];
}

export const times = (value) => (value === null ? "-" : `${value.toFixed(2)}×`);

function targetsTable(results) {
  const verdicts = targets(results).map(([what, value, target, met]) => [what, times(value), target, met(value)]);
  const hand = byId(results, "hand");
  const intact = hand ? bigIntact(hand) : "-";
  verdicts.push([
    "10 MB text intact in every call",
    intact,
    "all",
    hand !== undefined && intact.split("/")[0] === intact.split("/")[1],
  ]);
  const met = verdicts.filter((row) => row[3]).length;
  const rows = verdicts.map(([what, value, target, ok]) => [what, value, target, ok ? "met" : "MISSED"]);
  // No target: the batched echo writes the way the hand-written code does, so this is what JSON and MCP cost.
  const floor = ["clientCpuUs", "serverCpuUs"].map((field) => [
    `${field.startsWith("client") ? "client" : "server"} CPU per call ÷ batched echo's`,
    times(ratio(results, "hand", "raw-batched", field)),
    "none",
    "-",
  ]);
  return (
    `${table([["hand-written pair", "ratio", "target", "verdict"], ...rows, ...floor])}\n${met} ` +
    `of ${rows.length} targets met.`
  );
}
//#endregion

/** Every 10 MB call that came back changed or not at all, as one line each. */
export function integrityProblems(results) {
  return results.pairs.flatMap((pair) =>
    pair.rounds.flatMap((round, i) => {
      const bad = round.corrupted + round.failed;
      if (bad === 0) return [];
      const why = round.error ? `: ${round.error}` : "";
      const broken = round.replaced ? ` (${round.replaced} characters came back as U+FFFD)` : "";
      return [
        `${pair.label}, round ${i + 1}: ${round.corrupted} corrupted${broken}, ` +
          `${round.failed} failed of ${round.bigCalls}${why}`,
      ];
    }),
  );
}

export function machineLine({ label, machine, settings }) {
  const { cpu, cores, node, os, date, loadAverage } = machine;
  const run =
    `${cpu}, ${cores} cores, Node ${node}, ${os}; ${date}; ` +
    `${settings.rounds} rounds; 1-minute load ${loadAverage} at the start.`;
  return label ? `${label}: ${run}` : run;
}

function smokeReport(results) {
  const rows = results.pairs.map((pair) => [pair.label, bigIntact(pair)]);
  const size = `${(results.settings.bigBytes ?? 10_000_000) / 1_000_000} MB`;
  const heading = `smoke run: small echoes checked, ${size} text compared by sha256; no timings.`;
  return [heading, table([["pair", `${size} intact`], ...rows]), ...integrityProblems(results)].join("\n");
}

export function render(results) {
  if (results.settings.smoke) return smokeReport(results);
  const legend = [
    "start: spawn to the tools/list answer. p50, p99: round trip of one echo call with one in flight.",
    "calls/s and µs/call: 64 calls in flight; CPU is user + system time of that process, per call.",
    "10 MB: one echo of a 10,000,000-byte UTF-8 text; intact: calls whose sha256 matched what was sent.",
  ];
  return [
    machineLine(results),
    "",
    pairsTable(results),
    "",
    ...legend,
    "",
    targetsTable(results),
    ...integrityProblems(results),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(render(JSON.parse(readFileSync(process.argv[2], "utf8"))));
}
