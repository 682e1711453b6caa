// The board as its tool and resource see it: the file stays bounded however much is posted, so a read stays cheap.
import { mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { McpServer } from "@modelcontextprotocol/server";
import { afterEach, beforeEach, expect, it } from "vitest";
import { BOARD_URI, MAX_BOARD_BYTES, registerBoard } from "./board.ts";

let folder: string;
let file: string;
let post: (text: string) => void;
let shown: () => string[];
beforeEach(() => {
  folder = mkdtempSync(path.join(tmpdir(), "board-test-"));
  file = path.join(folder, "board.jsonl");
  writeFileSync(file, "");
  // Only the two calls registerBoard makes, so that the test calls the tool and reads the resource directly.
  const server = {
    registerTool: (_name: string, _config: unknown, tool: (args: { text: string }) => unknown) =>
      void (post = (text) => tool({ text })),
    registerResource: (
      _name: string,
      _uri: string,
      _metadata: unknown,
      read: (uri: URL) => { contents: { text: string }[] },
    ) => void (shown = () => read(new URL(BOARD_URI)).contents[0]!.text.split("\n").filter(Boolean)),
  };
  registerBoard(server as unknown as McpServer, { file, changed: () => {} });
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const text = (i: number) => `${i} ${"é\u0001".repeat(249)}`; // escapes and two-byte characters: long lines
const LONGEST_LINE = 500 * 6 + 3;

it("keeps the file under MAX_BOARD_BYTES however much is posted, and shows the latest 20 in order", () => {
  const posts = Math.ceil((5 * MAX_BOARD_BYTES) / JSON.stringify(text(0)).length);
  let [largest, inFile] = [0, 0]; // the largest the file was; how many posts it holds now
  for (let i = 0; i < posts; i++) {
    post(text(i));
    const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0; // 0: this post moved it to board.jsonl.1
    [largest, inFile] = [Math.max(largest, size), size === 0 ? 0 : inFile + 1];
  }
  expect(largest).toBeLessThanOrEqual(MAX_BOARD_BYTES + LONGEST_LINE);
  const count = Math.min(20, inFile);
  expect([count > 0, shown()]).toEqual([true, Array.from({ length: count }, (_, k) => text(posts - count + k))]);
});

it("starts a new file at the next post when the board has grown past the bound", () => {
  truncateSync(file, 3 * 1024 ** 3); // 3 GiB, sparse: more than node reads into one string
  post("after the gap");
  expect([statSync(`${file}.1`).size, shown()]).toEqual([
    3 * 1024 ** 3 + JSON.stringify("after the gap").length + 1,
    [],
  ]);
  post("hello");
  expect(shown()).toEqual(["hello"]);
});
