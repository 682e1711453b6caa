// The progress bar in-process: what one update renders, and what reaches a terminal and a pipe.
import { describe, expect, it } from "vitest";
import { progressBar, renderProgress } from "./progress-bar.ts";

// A stand-in for stdout that records every write; isTTY as a terminal or a pipe would set it.
function recorder(isTTY: boolean) {
  const writes: string[] = [];
  return {
    writes,
    out: { isTTY, write: (chunk: string) => writes.push(chunk) > 0 } as unknown as NodeJS.WritableStream & {
      isTTY: boolean;
    },
  };
}

describe("renderProgress", () => {
  it.each([
    [{ progress: 0, total: 4 }, "[....................] 0/4"],
    [{ progress: 1, total: 4, message: "counted 1 of 4" }, "[#####...............] 1/4 counted 1 of 4"],
    [{ progress: 1, total: 3 }, "[#######.............] 1/3"],
    [{ progress: 4, total: 4 }, "[####################] 4/4"],
    [{ progress: 9, total: 4 }, "[####################] 9/4"],
    [{ progress: -1, total: 4 }, "[....................] -1/4"],
  ])("draws %j as a bar of twenty, never over- or underfilled", (progress, line) => {
    expect(renderProgress(progress)).toBe(line);
  });

  it.each([[{ progress: 7 }], [{ progress: 7, total: 0 }], [{ progress: 7, total: Number.NaN }]])(
    "draws %j without a total as a bar of ?",
    (progress) => {
      expect(renderProgress({ ...progress, message: "bytes" })).toBe(`[${"?".repeat(20)}] 7 bytes`);
    },
  );
});

describe("progressBar", () => {
  it("writes one line per update to a pipe, so the output is the same on every run", () => {
    const { writes, out } = recorder(false);
    const bar = progressBar(out);
    bar.update({ progress: 1, total: 2 });
    bar.print("log info: half way");
    bar.update({ progress: 2, total: 2 });
    expect(writes.join("")).toBe("[##########..........] 1/2\nlog info: half way\n[####################] 2/2\n");
  });

  it("redraws one line on a terminal, and ends it before any other output", () => {
    const { writes, out } = recorder(true);
    const bar = progressBar(out);
    bar.print("start");
    bar.update({ progress: 1, total: 2 });
    bar.update({ progress: 2, total: 2 });
    bar.print("done");
    bar.print("next");
    expect(writes).toEqual([
      "start\n",
      "\r[##########..........] 1/2\x1b[K",
      "\r[####################] 2/2\x1b[K",
      "\n",
      "done\n",
      "next\n",
    ]);
  });
});
