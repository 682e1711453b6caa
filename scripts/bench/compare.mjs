// `node scripts/bench/compare.mjs results.json [before after]`: two pairs of one run, figure by figure.
// The change is the median of the ratios taken inside each round, so both sides always saw the same minute of load.
import { readFileSync } from "node:fs";
import { byId, fixed, grouped, machineLine, of, ratio, table, times } from "./render.mjs";

const FIGURES = [
  ["client CPU µs/call", "clientCpuUs", (value) => fixed(value, 2)],
  ["server CPU µs/call", "serverCpuUs", (value) => fixed(value, 2)],
  ["calls/s, 64 in flight", "callsPerSec", grouped],
  ["round trip p50 µs", "p50Us", (value) => fixed(value, 1)],
  ["10 MB echo ms", "bigMs", (value) => fixed(value, 0)],
];

function compare(results, beforeId, afterId) {
  const [before, after] = [beforeId, afterId].map((id) => byId(results, id) ?? fail(`no pair ${id} in this run`));
  const rows = FIGURES.map(([label, field, format]) => [
    label,
    format(of(before, field)),
    format(of(after, field)),
    times(ratio(results, afterId, beforeId, field)),
  ]);
  return [
    machineLine(results),
    `before: ${before.label}`,
    `after: ${after.label}`,
    "",
    table([["figure", "before", "after", "after ÷ before"], ...rows]),
    "Figures: medians over the rounds. after ÷ before: the median of the ratios taken inside each round.",
  ].join("\n");
}

function fail(message) {
  console.error(`compare: ${message}`);
  process.exit(2);
}

const [file, beforeId = "hand-before", afterId = "hand"] = process.argv.slice(2);
if (!file) fail("usage: compare.mjs results.json [before-pair after-pair]");
console.log(compare(JSON.parse(readFileSync(file, "utf8")), beforeId, afterId));
