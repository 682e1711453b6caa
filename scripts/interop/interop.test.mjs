// The interop matrix run for real: every client lists tools and calls one on every server, in every era it offers.
// Observations are compared with the committed scripts/interop/results.json; UPDATE_INTEROP=1 rewrites that file.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FALLBACK_BOUND_MS, runCell } from "./clients.mjs";
import { bundlePrograms, CELL_TAG, survivors } from "./launch.mjs";
import { cellName, cells, expectation, serverOf } from "./matrix.mjs";
import { MARKER } from "../test/leftovers.mjs";
import { createLimit } from "../shared/limit.mjs";

const RESULTS = fileURLToPath(new URL("./results.json", import.meta.url));
const UPDATE = process.env.UPDATE_INTEROP === "1";
// Each cell starts up to four Node processes: more at once only queue on 2 cores.
const CONCURRENCY = 3;
const run = randomBytes(6).toString("hex");

const limited = createLimit(CONCURRENCY);

let root;
let bundles;
const observations = new Map();
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "learn-mcp-interop-"));
  bundles = await bundlePrograms(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.concurrent("each client lists the tools of each server and calls one", () => {
  cells().forEach((cell, index) => {
    it(cellName(cell), { timeout: 300_000 }, async () => {
      const folder = path.join(root, `cell-${index}`);
      mkdirSync(folder);
      // The tag marks every process of this cell; the test run's marker, if any, is handed on for scripts/test.mjs.
      const tags = { [CELL_TAG]: `${run}-${index}`, ...(process.env[MARKER] && { [MARKER]: process.env[MARKER] }) };
      const result = await limited(() => runCell(cell, { folder, tags, bundles }));
      observations.set(cellName(cell), result.observed);
      expect(await survivors(tags[CELL_TAG]), "processes left running").toEqual([]);
      expect(result.observed).toEqual(expectation(cell));
      if (result.tools) expect(result.tools).toEqual(expect.arrayContaining(serverOf(cell).tools));
      if (cell.era === "auto" && !serverOf(cell).modern) expect(result.ms).toBeLessThan(FALLBACK_BOUND_MS);
    });
  });
});

//#region results
// One cell a line, in matrix order, with no timings: the file changes only when an outcome does.
function resultsFile() {
  const rows = cells().map((cell) => {
    const observed = observations.get(cellName(cell)) ?? {
      outcome: "error",
      code: "missing",
      error: "cell did not finish",
    };
    return { ...cell, ...observed };
  });
  return `[\n${rows.map((row) => `  ${JSON.stringify(row)}`).join(",\n")}\n]\n`;
}

describe("the committed results", () => {
  it(UPDATE ? "are rewritten from this run" : "match this run (UPDATE_INTEROP=1 rewrites them)", () => {
    if (UPDATE) return writeFileSync(RESULTS, resultsFile());
    expect(resultsFile()).toBe(readFileSync(RESULTS, "utf8"));
  });
});
//#endregion
