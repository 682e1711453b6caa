// `node scripts/bench/render-http.mjs http-results.json`: the HTTP rows' table and the bridge's verdict, from the file
// alone. Same file, same text, as render.mjs: medians over the rounds, ratios taken inside each round.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fixed, grouped, machineLine, median, table, times } from "./render.mjs";

const rowOf = (results, id) => results.rows.find((row) => row.id === id);
const of = (row, field) => median(row.rounds.map((round) => round[field]));
// node processes only: tsx may start an esbuild service beside a program whose files it has not compiled before.
const nodeProcesses = (round) => round.processes.filter((proc) => proc.name === "node").length;

//#region rows-table
function rowsTables(results) {
  const one = results.rows.map((row) => [
    row.label,
    fixed(of(row, "p50Us"), 0),
    fixed(of(row, "p99Us"), 0),
    fixed(of(row, "oneClientCpuUs"), 1),
    fixed(of(row, "oneServerCpuUs"), 1),
  ]);
  const many = results.rows.map((row) => [
    row.label,
    grouped(of(row, "callsPerSec")),
    fixed(of(row, "clientCpuUs"), 1),
    fixed(of(row, "serverCpuUs"), 1),
    fixed(median(row.rounds.map(nodeProcesses)), 0),
  ]);
  return [
    table([["one call in flight", "p50 µs", "p99 µs", "client µs/call", "server µs/call"], ...one]),
    table([["64 calls in flight", "calls/s", "client µs/call", "server µs/call", "server processes"], ...many]),
  ].join("\n\n");
}
//#endregion

//#region verdict
/** Median over the rounds of `compute(round of each named row)`; a round missing any row is left out. */
function perRound(results, ids, compute) {
  const rows = ids.map((id) => rowOf(results, id));
  if (rows.some((row) => row === undefined)) return null;
  return median(
    rows[0].rounds.map((_, i) => {
      const rounds = rows.map((row) => row.rounds[i]);
      return rounds.every((round) => typeof round?.p50Us === "number") ? compute(...rounds) : null;
    }),
  );
}

// The verdict is judged on the unrounded median: 1.0144 prints as 1.01× and misses a target of at most 1.
const judged = (value) => (value !== null && value <= 1 ? "met" : "MISSED");

function verdict(results) {
  const budget = (floor, stdio) => 1.3 * floor.p50Us + stdio.p50Us;
  const value = perRound(
    results,
    ["bridge", "floor", "stdio"],
    (bridge, floor, stdio) => bridge.p50Us / budget(floor, stdio),
  );
  const least = perRound(
    results,
    ["least-bridge", "floor", "stdio"],
    (bridge, floor, stdio) => bridge.p50Us / budget(floor, stdio),
  );
  const microseconds = (compute) => fixed(perRound(results, ["bridge", "floor", "stdio"], compute), 0);
  const rows = [
    ["bridge p50 ÷ (1.3 × floor p50 + stdio hop p50)", times(value), "≤ 1×", judged(value)],
    ["  bridge p50, µs", microseconds((bridge) => bridge.p50Us), "", ""],
    ["  1.3 × floor p50 + stdio hop p50, µs", microseconds((_, floor, stdio) => budget(floor, stdio)), "", ""],
    ["  servers' CPU per call, 1 in flight: bridge's, µs", microseconds((bridge) => bridge.oneServerCpuUs), "", ""],
    [
      "  the floor's + the stdio hop's, µs",
      microseconds((_, floor, stdio) => floor.oneServerCpuUs + stdio.oneServerCpuUs),
      "",
      "",
    ],
    ["least bridge p50 ÷ the same", times(least), "≤ 1×", judged(least)],
    [
      "bridge p50 ÷ least bridge p50",
      times(perRound(results, ["bridge", "least-bridge"], (bridge, least) => bridge.p50Us / least.p50Us)),
      "",
      "",
    ],
  ];
  const vsOne = (id, field, what) => [
    what,
    times(perRound(results, [id, "workers-1"], (a, b) => a[field] / b[field])),
    "none",
    "-",
  ];
  const spread = ["workers-2", "workers-4"].flatMap((id) => [
    vsOne(id, "callsPerSec", `${id}: calls/s ÷ workers-1's`),
    vsOne(id, "serverCpuUs", `${id}: server µs/call ÷ workers-1's`),
  ]);
  return table([["target and ratios", "value", "target", "verdict"], ...rows, ...spread]);
}
//#endregion

/**
 * The verdict and the workers' ratios round by round, with the load as each round's rows began: the spread behind a
 * median.
 */
function byRound(results) {
  const rounds = results.rows[0]?.rounds.length ?? 0;
  const each = (ids, compute) =>
    Array.from({ length: rounds }, (_, i) => {
      const got = ids.map((id) => rowOf(results, id)?.rounds[i]);
      return got.every((round) => typeof round?.p50Us === "number") ? times(compute(...got)) : "-";
    });
  const loads = Array.from({ length: rounds }, (_, i) => {
    const seen = results.rows.map((row) => row.rounds[i]?.load).filter((load) => typeof load === "number");
    return seen.length === 0 ? "-" : `${Math.min(...seen).toFixed(1)}-${Math.max(...seen).toFixed(1)}`;
  });
  const budget = (bridge, floor, stdio) => bridge.p50Us / (1.3 * floor.p50Us + stdio.p50Us);
  return table([
    ["round", ...Array.from({ length: rounds }, (_, i) => String(i + 1))],
    ["bridge p50 ÷ (1.3 × floor p50 + stdio hop p50)", ...each(["bridge", "floor", "stdio"], budget)],
    ["least bridge p50 ÷ the same", ...each(["least-bridge", "floor", "stdio"], budget)],
    ["workers-2: calls/s ÷ workers-1's", ...each(["workers-2", "workers-1"], (a, b) => a.callsPerSec / b.callsPerSec)],
    ["workers-4: calls/s ÷ workers-1's", ...each(["workers-4", "workers-1"], (a, b) => a.callsPerSec / b.callsPerSec)],
    ["1-minute load as the rows began", ...loads],
  ]);
}

/** Which worker answered the calls with 64 in flight, over every round: cluster hands out connections, not calls. */
function servedBy(results) {
  return results.rows
    .filter((row) => row.id.startsWith("workers-"))
    .map((row) => {
      const totals = {};
      for (const round of row.rounds)
        for (const [name, count] of Object.entries(round.servedBy ?? {})) totals[name] = (totals[name] ?? 0) + count;
      const sum = Object.values(totals).reduce((a, b) => a + b, 0);
      return `${row.id}: ${
        Object.entries(totals)
          .map(([name, count]) => `${name} ${((100 * count) / sum).toFixed(0)} %`)
          .join(", ") || "-"
      }`;
    });
}

/** Every round that failed or left a process running, one line each. */
export function httpProblems(results) {
  return results.rows.flatMap((row) =>
    row.rounds.flatMap((round, i) => [
      ...(round.error ? [`${row.label}, round ${i + 1}: ${round.error}`] : []),
      ...(round.leftovers.length > 0
        ? [`${row.label}, round ${i + 1}: still running after it stopped, killed: ${round.leftovers.join(", ")}`]
        : []),
    ]),
  );
}

function smokeReport(results) {
  const rows = results.rows.map((row) => [
    row.label,
    row.rounds[0].error ? "failed" : String(row.rounds[0].answered),
    String(row.rounds[0].processes.length),
    row.rounds[0].leftovers.length === 0 ? "yes" : "NO",
  ]);
  const heading = "smoke run over HTTP: every answer checked to be 42; no timings.";
  return [heading, table([["row", "answered", "processes", "all stopped"], ...rows]), ...httpProblems(results)].join(
    "\n",
  );
}

export function renderHttp(results) {
  if (results.settings.smoke) return smokeReport(results);
  const legend = [
    "p50, p99: round trip of one tools/call of add with one in flight, on one kept-alive connection; 64 in flight:",
    "on 64 connections. µs/call: user + system CPU time per call, of the client's process and of every server",
    "process summed (the bridge and its child; the cluster's primary and workers).",
  ];
  const workers = ["answers per worker, 64 in flight:", ...servedBy(results).map((line) => `  ${line}`)];
  const end = results.loadAtEnd === undefined ? [] : [`1-minute load ${results.loadAtEnd} at the end.`];
  return [
    machineLine(results),
    ...end,
    "",
    rowsTables(results),
    "",
    ...legend,
    "",
    verdict(results),
    "",
    byRound(results),
    "",
    ...workers,
    ...httpProblems(results),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(renderHttp(JSON.parse(readFileSync(process.argv[2], "utf8"))));
}
