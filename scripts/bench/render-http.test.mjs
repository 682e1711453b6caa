// The HTTP verdicts as the performance appendix prints them: each judged on its unrounded median, which the table
// rounds to two places (the committed run's least bridge is 1.0144: it prints as 1.01× and misses "at most 1").
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderHttp } from "./render-http.mjs";

const committed = () => JSON.parse(readFileSync(new URL("./http-results.json", import.meta.url), "utf8"));
const LEAST = "least bridge p50 ÷ the same";
// The label's lines: first in the table of targets, then in the table of rounds.
const leastLines = (results) =>
  renderHttp(results)
    .split("\n")
    .filter((line) => line.startsWith(`${LEAST}  `));

describe("renderHttp", () => {
  it("judges the least bridge against the bridge's target, on the unrounded median", () => {
    const results = committed();
    expect(leastLines(results)[0]).toMatch(/ 1\.01× +≤ 1× +MISSED$/);
    // Halve the least bridge's round trips: the same target is then met.
    for (const round of results.rows.find((row) => row.id === "least-bridge").rounds) round.p50Us /= 2;
    expect(leastLines(results)[0]).toMatch(/ 0\.5\d× +≤ 1× +met$/);
  });

  it("shows the least bridge round by round, next to the bridge", () => {
    const lines = leastLines(committed());
    expect(lines).toHaveLength(2);
    expect(lines[1].trim().split(/\s{2,}/)).toEqual([LEAST, "0.86×", "1.01×", "1.00×", "1.02×", "1.05×"]);
  });
});
