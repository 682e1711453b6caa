// Qualified tool names: the characters and length a model API accepts, and collisions kept apart in a stable order.
import { describe, expect, test } from "vitest";
import { assignNames, qualifiedName, routeTable } from "./names.ts";

describe("qualifiedName", () => {
  test("keeps letters, digits, _ and -, and turns everything else into _", () => {
    expect(qualifiedName("demo", "add")).toBe("mcp__demo__add");
    expect(qualifiedName("my.server", "read file/é")).toBe("mcp__my_server__read_file__");
    expect(qualifiedName("a-b", "x_Y9")).toBe("mcp__a-b__x_Y9");
  });

  test("cuts a long name to 64 characters", () => {
    const name = qualifiedName("s", "t".repeat(100));
    expect(name).toHaveLength(64);
    expect(name).toBe(`mcp__s__${"t".repeat(56)}`);
  });
});

describe("assignNames", () => {
  test("gives colliding names _2, _3 in server then tool order, and warns once per renamed tool", () => {
    const warnings: string[] = [];
    const routes = assignNames(
      [
        { server: "b", tool: "x.y" },
        { server: "a", tool: "x y" },
        { server: "a", tool: "x_y" },
        { server: "c", tool: "z" },
      ],
      (line) => warnings.push(line),
    );
    expect(routes).toEqual([
      { name: "mcp__a__x_y", server: "a", tool: "x y" },
      { name: "mcp__a__x_y_2", server: "a", tool: "x_y" },
      { name: "mcp__b__x_y", server: "b", tool: "x.y" },
      { name: "mcp__c__z", server: "c", tool: "z" },
    ]);
    expect(warnings).toEqual(['tool "x_y" of server "a" is offered as mcp__a__x_y_2: mcp__a__x_y is taken']);
  });

  test("a server or tool name with __ collides only where whole names match; each keeps its route", () => {
    // "a__b" + "c" and "a" + "b__c" both read mcp__a__b__c: splitting on "__" could not tell them apart.
    const routes = assignNames([
      { server: "a__b", tool: "c" },
      { server: "a", tool: "b__c" },
    ]);
    expect(routes).toEqual([
      { name: "mcp__a__b__c", server: "a", tool: "b__c" },
      { name: "mcp__a__b__c_2", server: "a__b", tool: "c" },
    ]);
  });

  test("a suffix still fits in 64 characters, and the suffixed names stay unique", () => {
    const long = "t".repeat(80);
    const routes = assignNames([1, 2, 3].map((i) => ({ server: "s", tool: `${long}${i}` })));
    expect(routes.map((route) => route.name)).toEqual([
      `mcp__s__${"t".repeat(56)}`,
      `mcp__s__${"t".repeat(54)}_2`,
      `mcp__s__${"t".repeat(54)}_3`,
    ]);
    expect(routes.every((route) => route.name.length <= 64)).toBe(true);
  });

  test("a suffixed name that another tool already has moves on to the next number", () => {
    const routes = assignNames([
      { server: "s", tool: "a.b" },
      { server: "s", tool: "a_b" },
      { server: "s", tool: "a_b_2" },
    ]);
    expect(routes.map((route) => route.name)).toEqual(["mcp__s__a_b", "mcp__s__a_b_2", "mcp__s__a_b_2_2"]);
  });
});

test("routeTable leads each qualified name back to its server, the tool's original name and its definition", () => {
  const table = routeTable([
    { name: "a__b", tools: [{ name: "c", description: "c of a__b" }] },
    { name: "a", tools: [{ name: "b__c", description: "b__c of a" }] },
  ]);
  expect(Object.fromEntries(table)).toEqual({
    mcp__a__b__c: {
      name: "mcp__a__b__c",
      server: "a",
      tool: "b__c",
      definition: { name: "b__c", description: "b__c of a" },
    },
    mcp__a__b__c_2: {
      name: "mcp__a__b__c_2",
      server: "a__b",
      tool: "c",
      definition: { name: "c", description: "c of a__b" },
    },
  });
});

test("a name stays with its tool: a newcomer sorting first gets the next number; freed names stay unused", () => {
  const given = new Map<string, string>();
  const warnings: string[] = [];
  const names = (tools: { server: string; tool: string }[]) =>
    assignNames(tools, (line) => warnings.push(line), given).map((route) => `${route.name} ${route.server}`);
  expect(names([{ server: "v_x", tool: "t" }])).toEqual(["mcp__v_x__t v_x"]);
  // "v.x" sorts before "v_x": given from scratch, it would take mcp__v_x__t and push v_x to _2.
  expect(
    names([
      { server: "v.x", tool: "t" },
      { server: "v_x", tool: "t" },
    ]),
  ).toEqual(["mcp__v_x__t_2 v.x", "mcp__v_x__t v_x"]);
  expect(warnings).toEqual(['tool "t" of server "v.x" is offered as mcp__v_x__t_2: mcp__v_x__t is taken']);
  // v_x's tool goes; its name stays taken, so a later tool of another server cannot reach it.
  expect(
    names([
      { server: "v.x", tool: "t" },
      { server: "v-x", tool: "t" },
    ]),
  ).toEqual(["mcp__v-x__t v-x", "mcp__v_x__t_2 v.x"]);
  expect(
    names([
      { server: "v.x", tool: "t" },
      { server: "v x", tool: "t" },
    ]),
  ).toEqual(["mcp__v_x__t_3 v x", "mcp__v_x__t_2 v.x"]);
});
