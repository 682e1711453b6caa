// tools/list and tools/call on the wire: exact results, isError for tools that fail, JSON-RPC errors for bad routing.
// Argument checks look at own properties only, so names every object inherits are unknown fields like any other.
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { Wire } from "./test/wire.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const serverPath = fileURLToPath(new URL("./server.ts", import.meta.url));
let wire: Wire;
beforeAll(async () => {
  wire = new Wire(serverPath, [tmpdir()]);
  await wire.initialize();
});
afterAll(async () => {
  expect(await wire.close()).toBe(0);
});

let nextId = 1;
async function request(method: string, params?: unknown): Promise<{ result?: unknown; error?: unknown }> {
  const id = nextId++;
  wire.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  const answer = JSON.parse(await wire.nextLine());
  expect(answer.id).toBe(id);
  return answer;
}
const call = (name: string, args: unknown) => request("tools/call", { name, arguments: args });
const text = (value: string, isError?: true) => ({
  result: { content: [{ type: "text", text: value }], ...(isError && { isError }) },
});

describe("tools/list", () => {
  test("lists every tool with its description and inputSchema", async () => {
    const { result } = await request("tools/list");
    expect(result).toEqual({
      tools: [
        {
          name: "add",
          description: "Adds two numbers and returns the sum.",
          inputSchema: {
            type: "object",
            properties: { a: { type: "number" }, b: { type: "number" } },
            required: ["a", "b"],
            additionalProperties: false,
          },
        },
        expect.objectContaining({ name: "echo", description: "Returns the message it was given." }),
        expect.objectContaining({
          name: "createFile",
          inputSchema: expect.objectContaining({ required: ["path", "content"] }),
        }),
      ],
    });
  });
});

describe("tools/call", () => {
  test("answers with a text result", async () => {
    expect(await call("add", { a: 2, b: 40.5 })).toMatchObject(text("42.5"));
    expect(await call("echo", { message: "héllo 🙂" })).toMatchObject(text("héllo 🙂"));
    expect(
      await request("tools/call", { name: "echo", arguments: { message: "" }, _meta: { progressToken: 1 } }),
    ).toMatchObject(text(""));
  });

  test.each([
    ["a wrong type", { a: "2", b: 40 }, '"a" must be a number, got string'],
    ["null", { a: null, b: 40 }, '"a" must be a number, got null'],
    ["a missing argument", { a: 2 }, '"b" is required'],
    ["an extra argument", { a: 2, b: 40, c: 1 }, '"c" is not an expected field (expected: a, b)'],
    ["an inherited name", { a: 2, b: 40, constructor: 1 }, '"constructor" is not an expected field (expected: a, b)'],
    ["__proto__", JSON.parse('{"a":2,"b":40,"__proto__":{}}'), '"__proto__" is not an expected field (expected: a, b)'],
  ])("answers %s with an isError result that names the field", async (_name, args, problem) => {
    expect(await call("add", args)).toMatchObject(text(`Invalid arguments for add: ${problem}`, true));
  });

  test("does not take a required name from the prototype", async () => {
    expect(await call("echo", { toString: "x" })).toMatchObject(
      text('Invalid arguments for echo: "message" is required', true),
    );
  });

  test.each([
    ["an unknown tool", { name: "multiply", arguments: {} }, "Invalid params: unknown tool multiply"],
    ["an inherited tool name", { name: "toString", arguments: {} }, "Invalid params: unknown tool toString"],
    [
      "arguments that are an array",
      { name: "add", arguments: [2, 40] },
      "Invalid params: tools/call takes {name: string, arguments?: object}",
    ],
    ["no name", { arguments: {} }, "Invalid params: tools/call takes {name: string, arguments?: object}"],
  ])("answers %s with a JSON-RPC error -32602", async (_name, params, message) => {
    expect(await request("tools/call", params)).toMatchObject({ error: { code: -32602, message } });
  });
});
