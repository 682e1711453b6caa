// `node scripts/bench/compare.mjs a.json b.json ...`: the hand-written pair across runs, labelled by `--label`.
// Each figure also shows its ratio to the same run's raw pipe echo, so a busier machine does not pass for a change.
import { readFileSync } from "node:fs";
import { byId, fixed, grouped, of, ratio, table, times } from "./render.mjs";

const FIGURES = [
  ["client CPU µs/call", "clientCpuUs", (value) => fixed(value, 2)],
  ["server CPU µs/call", "serverCpuUs", (value) => fixed(value, 2)],
  ["calls/s, 64 in flight", "callsPerSec", grouped],
  ["round trip p50 µs", "p50Us", (value) => fixed(value, 1)],
  ["10 MB echo ms", "bigMs", (value) => fixed(value, 0)],
];

function compare(runs) {
  const cell = (run, field, format) => `${format(of(byId(run, "hand"), field))} (${times(ratio(run, "hand", "raw", field))})`;
  const rows = FIGURES.map(([label, field, format]) => [label, ...runs.map((run) => cell(run, field, format))]);
  const header = ["hand client ↔ hand server", ...runs.map((run) => run.label || run.machine.date)];
  return `${table([header, ...rows])}\nIn brackets: the same figure divided by the raw pipe echo's in the same run.`;
}

const runs = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, "utf8")));
console.log(compare(runs));
