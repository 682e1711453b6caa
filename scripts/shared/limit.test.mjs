// The limiter counted, not timed: each task waits on a promise the test settles, so "at once" is exact.
import { describe, expect, it } from "vitest";
import { createLimit } from "./limit.mjs";

/** A task that records that it started and ends when the test calls `finish[i]()`. */
function gatedTasks(count, log) {
  const finish = [];
  const tasks = Array.from({ length: count }, (_, i) => async () => {
    log.push(`start ${i}`);
    await new Promise((resolve) => (finish[i] = resolve));
    log.push(`end ${i}`);
    return i;
  });
  return { tasks, finish };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe("createLimit", () => {
  it("never runs more than max at once, and starts the next task in order as each one ends", async () => {
    const log = [];
    const { tasks, finish } = gatedTasks(5, log);
    const limit = createLimit(2);
    const results = Promise.all(tasks.map((task) => limit(task)));
    await settled();
    expect(log).toEqual(["start 0", "start 1"]);
    finish[1]();
    await settled();
    expect(log).toEqual(["start 0", "start 1", "end 1", "start 2"]);
    for (const i of [0, 2, 3]) {
      finish[i]();
      await settled();
    }
    expect(log.filter((entry) => entry.startsWith("start"))).toEqual([0, 1, 2, 3, 4].map((i) => `start ${i}`));
    finish[4]();
    expect(await results).toEqual([0, 1, 2, 3, 4]);
  });

  it("passes a task's failure to its caller and keeps the slot free for the next task", async () => {
    const limit = createLimit(1);
    const failing = limit(() => {
      throw new Error("no");
    });
    const next = limit(async () => "ran");
    await expect(failing).rejects.toThrow("no");
    expect(await next).toBe("ran");
  });

  it("idle() waits until every task has a slot", async () => {
    const log = [];
    const { tasks, finish } = gatedTasks(3, log);
    const limit = createLimit(1);
    tasks.forEach((task) => limit(task));
    let idle = false;
    limit.idle().then(() => (idle = true));
    await settled();
    finish[0]();
    await settled();
    expect(idle).toBe(false);
    finish[1]();
    await settled();
    expect(idle).toBe(true);
    finish[2]();
  });
});
