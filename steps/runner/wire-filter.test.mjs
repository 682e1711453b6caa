// The --wire filters on a log written by hand: two HTTP exchanges that interleave, a stdio request with its answer
// around a notification, a server's request of the same id, and the demo's own lines.
import { describe, expect, it } from "vitest";
import { filterWire, takeWireFilters } from "./wire-filter.mjs";

const LOG = [
  "connecting",
  "-> [http 1] POST http://127.0.0.1:1/mcp  content-type: application/json",
  '-> [http 1] {"jsonrpc":"2.0","id":1,"method":"tools/list"}',
  "-> [http 2] GET http://127.0.0.1:1/mcp  accept: text/event-stream",
  "<- [http 1] 200 OK  content-type: application/json",
  "<- [http 2] 405 Method Not Allowed",
  '<- [http 1] {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
  '-> [1 server.ts] {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add"}}',
  '<- [1 server.ts] {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}',
  '<- [1 server.ts] {"jsonrpc":"2.0","id":7,"method":"sampling/createMessage"}',
  '<- [1 server.ts] {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"42"}]}}',
  '-> [1 server.ts] {"jsonrpc":"2.0","id":7,"result":{"role":"assistant"}}',
  '<- [1 server.ts] (not JSON-RPC) "ready"',
  "done",
  "",
].join("\n");
const lines = (...indexes) => `${indexes.map((index) => LOG.split("\n")[index]).join("\n")}\n`;

describe("filterWire", () => {
  it("--only keeps whole HTTP exchanges, in log order, and drops the demo's own lines", () => {
    expect(filterWire(LOG, { only: ["tools/list"] })).toBe(lines(1, 2, 4, 6));
    expect(filterWire(LOG, { only: ["405"] })).toBe(lines(3, 5));
  });

  it("--only keeps a stdio request with its answer, not the server's request that reuses its id", () => {
    expect(filterWire(LOG, { only: ["tools/call"] })).toBe(lines(7, 10));
    expect(filterWire(LOG, { only: ["sampling/"] })).toBe(lines(9, 11));
    expect(filterWire(LOG, { only: ["notifications/"] })).toBe(lines(8));
  });

  it("--only matches the label too, and given twice keeps what either matches", () => {
    expect(filterWire(LOG, { only: ["[http 2]"] })).toBe(lines(3, 5));
    expect(filterWire(LOG, { only: ["405", "notifications/"] })).toBe(lines(3, 5, 8));
  });

  it("--from starts at the first exchange that matches; --first keeps that many", () => {
    expect(filterWire(LOG, { from: "GET" })).toBe(lines(3, 5, 7, 8, 9, 10, 11, 12));
    expect(filterWire(LOG, { from: "GET", first: 2 })).toBe(lines(3, 5, 7, 10));
    expect(filterWire(LOG, { first: 1 })).toBe(lines(1, 2, 4, 6));
    expect(filterWire(LOG, { only: ["server.ts"], first: 2 })).toBe(lines(7, 8, 10));
  });

  it("nothing matched is empty text, whichever filter found nothing", () => {
    expect(filterWire(LOG, { only: ["resources/read"] })).toBe("");
    expect(filterWire(LOG, { from: "DELETE", first: 3 })).toBe("");
  });

  it("--cut cuts each longer line and says so; alone it keeps the demo's lines", () => {
    expect(filterWire(LOG, { only: ["405"], cut: 12 })).toBe("-> [http 2]  …\n<- [http 2]  …\n");
    const cut = filterWire(LOG, { cut: 10 }).split("\n");
    expect(cut[0]).toBe("connecting");
    expect(cut[1]).toBe("-> [http 1 …");
    expect(cut).toHaveLength(LOG.split("\n").length);
  });
});

describe("takeWireFilters", () => {
  it("takes each flag with its value and leaves the other arguments in order", () => {
    const taken = takeWireFilters(["27", "--wire", "--only", "a b", "--first", "2", "--only", "c", "--cut", "80"]);
    expect(taken).toEqual({ filter: { only: ["a b", "c"], first: 2, cut: 80 }, rest: ["27", "--wire"] });
    expect(takeWireFilters(["3", "--from", "--wire"])).toEqual({
      filter: { only: [], from: "--wire" },
      rest: ["3"],
    });
    expect(takeWireFilters(["3", "--wire"])).toEqual({ filter: undefined, rest: ["3", "--wire"] });
  });

  it("refuses a flag without its value and a count that is not a positive whole number", () => {
    expect(takeWireFilters(["3", "--wire", "--only"]).problem).toBe("--only needs a value.");
    expect(takeWireFilters(["3", "--wire", "--first", "0"]).problem).toBe(
      '--first takes a positive whole number, got "0".',
    );
    expect(takeWireFilters(["3", "--wire", "--cut", "12px"]).problem).toMatch(/^--cut takes a positive whole number/);
  });
});
