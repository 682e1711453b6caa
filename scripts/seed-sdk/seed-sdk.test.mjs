// Checks docs/appendix-seed-sdk.md: every name in its map exists (or is gone) in the installed SDK 1.x and 2.x,
// and servers and clients of the two majors talk over real stdio child processes, each one checked gone afterwards.
import { fileURLToPath } from "node:url";
import { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError as ClientProtocolError } from "@modelcontextprotocol/client";
import { McpServer, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { parseSide, ROWS, table } from "./seed-mapping.mjs";
import { connectV1 } from "./seed-v1-client.mjs";
import { connectV2 } from "./seed-v2-client.mjs";
import { MARKER } from "../test/leftovers.mjs";

const isClass = (value) => typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value));
const KIND = {
  class: isClass,
  function: (value) => typeof value === "function" && !isClass(value),
  method: (value) => typeof value === "function",
  object: (value) => typeof value === "object" && value !== null,
  string: (value) => typeof value === "string",
  absent: (value) => value === undefined,
};

async function lookup({ module, exportName, member }) {
  const exported = (await import(module))[exportName];
  if (member === undefined) return exported;
  expect(isClass(exported), `${exportName} is a class`).toBe(true);
  return exported.prototype[member];
}

describe("the map's names, as found in each installed SDK", () => {
  it("prints one table line per row", () => expect(table().split("\n")).toHaveLength(ROWS.length + 2));
  it("says gone only of a name the other SDK has, so a typo cannot pass as absent", () => {
    const gone = ROWS.filter((row) => row.slice(1).some((side) => side?.startsWith("absent")));
    for (const [, one, two] of gone) expect(parseSide(one, "v1").name).toBe(parseSide(two, "v2").name);
  });
  for (const [topic, ...sides] of ROWS) {
    for (const [sdk, side] of [
      ["v1", parseSide(sides[0], "v1")],
      ["v2", parseSide(sides[1], "v2")],
    ]) {
      if (side === undefined) continue;
      it(`${topic}: ${sdk} ${side.module} ${side.name} is ${side.kind}`, async () => {
        expect(KIND[side.kind](await lookup(side))).toBe(true);
      });
    }
  }
});

describe("what the names do differently", () => {
  it("v1 keys a low-level handler by schema, v2 by method string", () => {
    const v1 = new ServerV1({ name: "v1", version: "1" }, { capabilities: { tools: {} } });
    const v2 = new Server({ name: "v2", version: "2" }, { capabilities: { tools: {} } });
    expect(() => v1.setRequestHandler("tools/call", async () => ({}))).toThrow(/method literal/);
    expect(() => v2.setRequestHandler(CallToolRequestSchema, async () => ({}))).toThrow(/not a spec request method/);
    expect(() => v2.setRequestHandler("tools/call", async () => ({ content: [] }))).not.toThrow();
  });

  it("v1 server.tool takes a raw zod shape only; both registerTools take z.object or a raw shape", () => {
    const [v1, v2] = [new McpServerV1({ name: "v1", version: "1" }), new McpServer({ name: "v2", version: "2" })];
    const noop = async () => ({ content: [] });
    const [object, shape] = [z.object({ a: z.number() }), { a: z.number() }];
    expect(() => v1.tool("t", object, noop)).toThrow(/unrecognized object/);
    for (const [server, prefix] of [
      [v1, "v1"],
      [v2, "v2"],
    ]) {
      expect(() => server.registerTool(`${prefix}-object`, { inputSchema: object }, noop)).not.toThrow();
      expect(() => server.registerTool(`${prefix}-shape`, { inputSchema: shape }, noop)).not.toThrow();
    }
  });

  it("McpError puts the code in its message; ProtocolError does not, and matches across packages", () => {
    expect(new McpError(ErrorCode.InvalidParams, "boom").message).toBe("MCP error -32602: boom");
    const error = new ClientProtocolError(ProtocolErrorCode.InvalidParams, "boom");
    expect([error.message, error.code, error instanceof ProtocolError]).toEqual(["boom", -32602, true]);
  });
});

const fixture = (name) => fileURLToPath(new URL(`./${name}.mjs`, import.meta.url));
// Hand the test run's marker on, so the leftover check in scripts/test.mjs can see these children.
const env = process.env[MARKER] === undefined ? undefined : { [MARKER]: process.env[MARKER] };
const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
const SERVERS = [
  { name: "seed-v1-server", dialect: DRAFT_07, validates: true, unknownToolIsResult: true },
  { name: "seed-v2-server", dialect: "https://json-schema.org/draft/2020-12/schema", validates: true },
  { name: "seed-v1-lowlevel", dialect: undefined, validates: false },
  { name: "seed-v2-lowlevel", dialect: undefined, validates: false },
];
const CLIENTS = [
  { sdk: "v1", connect: (file) => connectV1(file, env), errorClass: McpError },
  { sdk: "v2", connect: (file) => connectV2(file, env), errorClass: ProtocolError },
];

const open = new Set();
afterEach(async () => {
  await Promise.all([...open].map((client) => client.close()));
  open.clear();
});

async function connected(connect, file) {
  const connection = await connect(file);
  open.add(connection.client);
  return connection;
}

async function closeAndCheckGone({ client, pid }) {
  open.delete(client);
  await client.close();
  expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
}

describe("each SDK's client against each SDK's server, over real stdio", () => {
  for (const server of SERVERS) {
    for (const client of CLIENTS) {
      it(`${client.sdk} client → ${server.name}`, { timeout: 30_000 }, async () => {
        const connection = await connected(client.connect, fixture(server.name));
        const c = connection.client;
        expect(c.getServerVersion().name).toBe(server.name);
        const { tools } = await c.listTools();
        expect(tools.map((tool) => [tool.name, tool.inputSchema.required, tool.inputSchema.$schema])).toEqual([
          ["add", ["a", "b"], server.dialect],
        ]);
        expect(await c.callTool({ name: "add", arguments: { a: 2, b: 40 } })).toEqual({
          content: [{ type: "text", text: "42" }],
        });
        const wrongType = await c.callTool({ name: "add", arguments: { a: "2", b: 40 } });
        expect(wrongType.isError === true).toBe(server.validates);
        const unknown = c.callTool({ name: "no_such_tool", arguments: {} });
        const { result, error } = await unknown.then(
          (result) => ({ result }),
          (error) => ({ error }),
        );
        if (server.unknownToolIsResult) expect(result).toMatchObject({ isError: true });
        else expect([error instanceof client.errorClass, error?.code]).toEqual([true, -32602]);
        await closeAndCheckGone(connection);
      });
    }
  }

  const eras = [
    ["legacy", "seed-v2-server", "legacy", "2025-11-25"],
    ["auto", "seed-v1-server", "legacy", "2025-11-25"],
    ["auto", "seed-v2-server", "modern", "2026-07-28"],
    ["auto", "seed-v2-connect", "legacy", "2025-11-25"],
  ];
  for (const [mode, name, era, version] of eras) {
    it(`v2 client in ${mode} mode → ${name}: ${era} era, ${version}`, { timeout: 30_000 }, async () => {
      const connection = await connected((file) => connectV2(file, env, mode), fixture(name));
      expect([connection.client.getProtocolEra(), connection.client.getNegotiatedProtocolVersion()]).toEqual([
        era,
        version,
      ]);
      await closeAndCheckGone(connection);
    });
  }
});
