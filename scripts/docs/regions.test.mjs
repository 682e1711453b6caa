// Region extraction: nesting, dedent, and the errors a chapter author sees.
import { describe, expect, it } from "vitest";
import { dedent, extractRegion, wholeFile } from "./regions.mjs";

const source = [
  "// header",
  "export function f() {",
  "  //#region outer",
  "  const a = 1;",
  "    //#region inner",
  "    const b = 2;",
  "    //#endregion",
  "  return a + b;",
  "  //#endregion",
  "}",
  "",
].join("\n");

describe("extractRegion", () => {
  it("keeps an outer region's code, drops the inner markers, and dedents", () => {
    expect(extractRegion(source, "outer")).toBe("const a = 1;\n  const b = 2;\nreturn a + b;");
  });

  it("extracts an inner region on its own", () => {
    expect(extractRegion(source, "inner")).toBe("const b = 2;");
  });

  it("names an unknown region in its error", () => {
    expect(() => extractRegion(source, "missing")).toThrow('region "missing" not found');
  });

  it("rejects a region that is never closed", () => {
    expect(() => extractRegion("//#region open\nx\n", "open")).toThrow("never closed");
  });

  it("rejects a region name used twice", () => {
    expect(() => extractRegion("//#region a\n//#endregion\n//#region a\n//#endregion\n", "a")).toThrow(
      "opened 2 times",
    );
  });

  it("does not take a region whose name only starts with the wanted one", () => {
    expect(() => extractRegion("//#region spawn-child\nx\n//#endregion\n", "spawn")).toThrow("not found");
  });
});

describe("wholeFile", () => {
  it("drops every marker line and keeps everything else", () => {
    expect(wholeFile(source)).toBe(
      "// header\nexport function f() {\n  const a = 1;\n    const b = 2;\n  return a + b;\n}",
    );
  });
});

describe("dedent", () => {
  it("removes only the indentation all non-blank lines share, and empties blank lines", () => {
    expect(dedent(["    a", "", "      b", "    "])).toEqual(["a", "", "  b", ""]);
  });
});
