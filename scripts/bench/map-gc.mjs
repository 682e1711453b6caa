// `node --expose-gc scripts/bench/map-gc.mjs map|object`: the pending-request pattern alone, without any I/O.
// 64 requests stay pending in a Map (or an object) under ever-growing ids, after one full GC; compare the young GCs.
import { constants, PerformanceObserver } from "node:perf_hooks";

const kind = process.argv[2] === "object" ? "object" : "map";
const pending = kind === "map" ? new Map() : Object.create(null);
const store = {
  add: (id, entry) => (kind === "map" ? pending.set(id, entry) : (pending[id] = entry)),
  take(id) {
    const entry = kind === "map" ? pending.get(id) : pending[id];
    if (kind === "map") pending.delete(id);
    else delete pending[id];
    return entry;
  },
};

let [youngRuns, youngMs] = [0, 0];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
    [youngRuns, youngMs] = [youngRuns + 1, youngMs + entry.duration];
  }
}).observe({ entryTypes: ["gc"] });

let nextId = 1;
const queued = [];
const answerAll = () => queued.splice(0).forEach((id) => store.take(id).resolve(id));
// A request is a promise whose resolver waits in the store; answers come back a turn later, in a batch, as from a pipe.
const request = () =>
  new Promise((resolve) => {
    const id = nextId++;
    store.add(id, { resolve, note: `request ${id}` });
    if (queued.push(id) === 1) setImmediate(answerAll);
  });

// A 10 MB message sets a full GC off too, and V8 starts some on its own while the heap grows.
globalThis.gc();
let done = 0;
const caller = async () => {
  while (done++ < 1_000_000) await request();
};
await Promise.all(Array.from({ length: 64 }, caller));
console.log(`${kind}, after one full GC: ${youngRuns} young GCs, ${(youngMs / youngRuns).toFixed(2)} ms each`);
