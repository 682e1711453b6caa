// The approval gate without processes: which names an --allow glob lets through, and what is asked or refused.
import { describe, expect, test } from "vitest";
import { approver, globToRegExp } from "./approval.ts";

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

describe("approver", () => {
  test("an allowed name runs without asking, and names the pattern that allowed it", async () => {
    const asked: string[] = [];
    const approve = approver(["mcp__other__*", "mcp__demo__*"], async (question) => (asked.push(question), "n"));
    expect(await approve("mcp__demo__add", { a: 1 })).toEqual({ allowed: true, why: "allowed by --allow 'mcp__demo__*'" });
    expect(asked).toEqual([]);
  });

  test("any other name is asked, with its input; only y or yes approves", async () => {
    for (const [answer, allowed] of [["y", true], [" YES ", true], ["n", false], ["", false], ["yep", false]] as const) {
      const asked: string[] = [];
      const verdict = await approver(["mcp__demo__add"], async (question) => (asked.push(question), answer))("mcp__demo__createFile", { path: "a" });
      expect(verdict).toEqual(allowed ? { allowed, why: "approved by the user" } : { allowed, why: "refused by the user" });
      expect(asked).toEqual(['allow mcp__demo__createFile {"path":"a"}? [y/N] ']);
    }
  });

  test("with no terminal to ask, a name outside the list is refused and the reason says so", async () => {
    expect(await approver([])("mcp__demo__add", {})).toEqual({
      allowed: false,
      why: "mcp__demo__add is not in the allow list (--allow), and there is no terminal to ask",
    });
  });
});
