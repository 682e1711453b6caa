// The approval gate without processes: which tools an --allow glob lets through, and what is asked or refused.
import { describe, expect, test } from "vitest";
import { allows, approver, globToRegExp } from "./approval.ts";
import { qualifiedName } from "./names.ts";

/** The route of `tool` on `server`, under its qualified name unless the manager gave it another. */
const route = (server: string, tool: string, name = qualifiedName(server, tool)) => ({ name, server, tool });

describe("globToRegExp", () => {
  test.each([
    ["mcp__demo__*", "mcp__demo__add", true],
    ["mcp__demo__*", "mcp__demo2__add", false],
    ["mcp__*__read_file", "mcp__files__read_file", true],
    ["mcp__demo__ad?", "mcp__demo__add", true],
    ["mcp__demo__ad?", "mcp__demo__adds", false],
    ["mcp__demo__add", "mcp__demo__add_2", false],
    ["*", "anything", true],
    ["mcp.demo.*", "mcpXdemoXadd", false], // a dot is a dot, not "any character"
    ["mcp__(demo)__*", "mcp__(demo)__add", true],
  ])("%s against %s: %s", (glob, name, matches) => {
    expect(globToRegExp(glob).test(name)).toBe(matches);
  });
});

describe("allows: a pattern names servers and tools, not the string their names were flattened into", () => {
  test.each([
    ["mcp__demo__*", route("demo", "add"), true],
    ["mcp__demo__*", route("demo", "evil__add"), true], // a tool of demo whose own name holds "__"
    ["mcp__demo__*", route("demo::evil", "add"), false], // offered as mcp__demo__evil__add, but not a tool of demo
    ["mcp__demo__*", route("demo.x", "add"), false],
    ["mcp__v_x__*", route("v.x", "t"), false], // v.x and v_x both read mcp__v_x__…: the pattern names v_x only
    ["mcp__v_x__*", route("v_x", "t"), true],
    ["mcp__v.x__*", route("v.x", "t"), true],
    ["mcp__a__b__*", route("a__b", "c"), true], // a server whose name holds "__"
    ["mcp__a__b__*", route("a", "b__c"), true],
    ["mcp__a__b__*", route("a", "c"), false],
    ["mcp__*__read_file", route("files", "read_file"), true],
    ["mcp__demo__add", route("demo", "add"), true],
    ["mcp__demo__add", route("demo", "add_2"), false],
    ["mcp__a_b__open", route("a.b", "open"), true], // the name it is offered under, exactly
    ["mcp__x__t_2", route("x", "t", "mcp__x__t_2"), true],
    ["mcp__demo*", route("demo", "add"), false], // no server and tool in it
    ["*", route("any", "thing"), true],
  ])("%s, %j: %s", (glob, to, allowed) => {
    expect(allows(glob, to)).toBe(allowed);
  });
});

describe("approver", () => {
  test("an allowed name runs without asking, and names the pattern that allowed it", async () => {
    const asked: string[] = [];
    const approve = approver(["mcp__other__*", "mcp__demo__*"], async (question) => (asked.push(question), "n"));
    expect(await approve(route("demo", "add"), { a: 1 })).toEqual({
      allowed: true,
      why: "allowed by --allow 'mcp__demo__*'",
    });
    expect(asked).toEqual([]);
  });

  test("any other name is asked, with its input; only y or yes approves", async () => {
    for (const [answer, allowed] of [
      ["y", true],
      [" YES ", true],
      ["n", false],
      ["", false],
      ["yep", false],
    ] as const) {
      const asked: string[] = [];
      const verdict = await approver(["mcp__demo__add"], async (question) => (asked.push(question), answer))(
        route("demo", "createFile"),
        { path: "a" },
      );
      expect(verdict).toEqual(
        allowed ? { allowed, why: "approved by the user" } : { allowed, why: "refused by the user" },
      );
      expect(asked).toEqual(['allow mcp__demo__createFile {"path":"a"}? [y/N] ']);
    }
  });

  test("with no terminal to ask, a name outside the list is refused and the reason says so", async () => {
    expect(await approver([])(route("demo", "add"), {})).toEqual({
      allowed: false,
      why: "mcp__demo__add is not in the allow list (--allow), and there is no terminal to ask",
    });
  });
});

test("a question with escape sequences in the name or the input is asked without them", async () => {
  const asked: string[] = [];
  const hostile = route("demo", "x", "mcp__demo__x\u001b[2J\u001b]0;t\u0007\r\u009b1m");
  await approver([], async (question) => (asked.push(question), "n"))(hostile, { a: "\u001b[31m" });
  expect(asked).toEqual(['allow mcp__demo__x {"a":"\\u001b[31m"}? [y/N] ']);
});
