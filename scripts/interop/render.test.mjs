// The interop table from results rows: a cell shows ✓ only when its observation is exactly what the matrix expects.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cells, expectation } from "./matrix.mjs";
import { render } from "./render.mjs";

const committed = JSON.parse(readFileSync(new URL("./results.json", import.meta.url), "utf8"));
const expected = cells().map((cell) => ({ ...cell, ...expectation(cell) }));
const rowOf = (table, label) => table.split("\n").find((line) => line.startsWith(`| ${label} `));
const same = (a, b) => a.client === b.client && a.era === b.era && a.server === b.server;
const replace = (cell, observed) => expected.map((row) => (same(row, cell) ? { ...cell, ...observed } : row));

describe("the interop table", () => {
  it("shows the committed results with no ✗, a row per client and era", () => {
    const table = render(committed);
    expect(table).not.toContain("✗");
    expect(table.split("\n").filter((line) => line.startsWith("| "))).toHaveLength(2 + 7);
    const auto = /^\| [^|]+\| ✓ legacy +\| ✓ modern +\| ✓ modern +\| ✓ legacy +\|$/;
    expect(rowOf(table, "SDK client · auto")).toMatch(auto);
  });

  it("numbers each expected failure's full text once, under the table", () => {
    const table = render(expected);
    expect(rowOf(table, "Inspector CLI · modern")).toContain("expected: exit 1 [2]");
    expect(table).toMatch(/^\[1\] SDK client: ERA_NEGOTIATION_FAILED: Version negotiation failed: .*$/m);
    expect(table.match(/^\[\d\]/gm)).toEqual(["[1]", "[2]"]);
  });

  it("shows ✗ and the observation for a call that worked in the wrong era", () => {
    const legacy = { outcome: "ok", negotiated: "legacy", text: "42" };
    const table = render(replace({ client: "sdk", era: "auto", server: "sdk" }, legacy));
    expect(rowOf(table, "SDK client · auto")).toContain("✗ [1]");
    expect(table).toContain(`[1] SDK client, auto era, server sdk: observed ${JSON.stringify(legacy)}`);
  });

  it("shows ✗ for a failure other than the expected one, and for a cell that did not run", () => {
    const wrongError = { outcome: "error", exitCode: 1, code: "error", error: "Connection closed" };
    const table = render(replace({ client: "inspector", era: "modern", server: "hand-written" }, wrongError).slice(1));
    expect(rowOf(table, "Inspector CLI · modern")).toMatch(/^\| [^|]+\| ✗ \[2\] +\| ✓ modern/);
    expect(rowOf(table, "hand-written CLI · legacy")).toMatch(/^\| [^|]+\| ✗ not run +\| ✓ ok/);
  });
});
