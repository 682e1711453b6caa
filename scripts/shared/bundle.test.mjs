// A bundle runs on its own: a CommonJS package inside it may call require(), which an ESM file lacks without the
// banner.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { bundleForNode } from "./bundle.mjs";

const dir = mkdtempSync(path.join(os.tmpdir(), "learn-mcp-bundle-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("bundles an ESM entry and the CommonJS module it imports into one file that runs in Node", async () => {
  writeFileSync(
    path.join(dir, "joined.cjs"),
    'const path = require("node:path");\nexports.joined = path.join("a", "b");\n',
  );
  writeFileSync(path.join(dir, "entry.mjs"), 'import { joined } from "./joined.cjs";\nconsole.log(joined);\n');
  const outfile = path.join(dir, "out", "bundle.mjs");
  await bundleForNode(path.join(dir, "entry.mjs"), outfile);
  // Run from elsewhere: the bundle must need nothing beside it.
  rmSync(path.join(dir, "joined.cjs"));
  expect(execFileSync(process.execPath, [outfile], { encoding: "utf8" })).toBe(`a${path.sep}b\n`);
});
