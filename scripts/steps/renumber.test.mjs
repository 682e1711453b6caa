// The text rewrites of renumbering, one rule at a time: whole folder names, and the numbers Markdown names steps by.
import { describe, expect, it } from "vitest";
import { copyImporter, renameFolders, renumberMarkdown } from "./renumber.mjs";

// Inserting after step 1: 02 becomes 03, 09 becomes 10.
const shift = (n) => (n > 1 ? n + 1 : n);

describe("renumberMarkdown", () => {
  it("renumbers every gen marker that takes a step number, and run.mjs commands", () => {
    for (const kind of ["run", "wire", "diff", "stat", "exercise", "part", "map"]) {
      expect(renumberMarkdown(`<!-- gen ${kind} 9 src/a.ts -->`, shift)).toBe(`<!-- gen ${kind} 10 src/a.ts -->`);
    }
    expect(renumberMarkdown("<!-- gen exec node steps/run.mjs 2 --wire | grep x -->", shift)).toBe(
      "<!-- gen exec node steps/run.mjs 3 --wire | grep x -->",
    );
    expect(renumberMarkdown("<!-- gen run 1 -->", shift)).toBe("<!-- gen run 1 -->");
  });

  it("renumbers a link's text only where it is the number of the chapter it links to", () => {
    expect(renumberMarkdown("[chapter 02](02-sum.md) and [the 2 tools of step 02](02-sum.md#tools)", shift)).toBe(
      "[chapter 03](02-sum.md) and [the 3 tools of step 03](02-sum.md#tools)",
    );
    expect(renumberMarkdown("[chapter 01](01-echo.md), chapters [09](09-fast.md) to [12](12-x.md)", shift)).toBe(
      "[chapter 01](01-echo.md), chapters [10](09-fast.md) to [13](12-x.md)",
    );
  });

  it("renumbers bare mentions outside links, keeping how each number was written, and a chapter's title", () => {
    expect(renumberMarkdown("# 09 · Fast\nsteps 2 to 09, step 01", shift)).toBe("# 10 · Fast\nsteps 3 to 10, step 01");
  });
});

describe("renameFolders", () => {
  it("replaces whole folder names at once, never a longer name that contains one", () => {
    const renames = new Map([
      ["02-sum", "03-sum"],
      ["03-sum-more", "04-sum-more"],
    ]);
    expect(renameFolders('"@learn-mcp/02-sum" steps/03-sum-more/src 02-summary x02-sum', renames)).toBe(
      '"@learn-mcp/03-sum" steps/04-sum-more/src 02-summary x02-sum',
    );
  });
});

describe("copyImporter", () => {
  it("copies a step's importer block under the new step's path, right after it", () => {
    const lock = "importers:\n\n  steps/01-a:\n    devDependencies:\n      tsx: x\n\n  steps/03-c:\n    y: 1\n";
    expect(copyImporter(lock, "01-a", "02-b")).toBe(
      "importers:\n\n  steps/01-a:\n    devDependencies:\n      tsx: x\n\n" +
        "  steps/02-b:\n    devDependencies:\n      tsx: x\n\n  steps/03-c:\n    y: 1\n",
    );
  });
});
