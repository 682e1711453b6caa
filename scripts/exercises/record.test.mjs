// The digest of a step's exercise inputs: the same after renumbering, different after any change of content.
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputsDigest } from "./record.mjs";

const root = mkdtempSync(path.join(os.tmpdir(), "record-test-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(rel, text) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}
const step = (folder) => ({ dir: path.join(root, "steps", folder) });
const digest = (folder, previous) => inputsDigest(step(folder), step(previous), [], root);

for (const [folder, body] of [
  ["01-echo", "export const echo = 1;\n"],
  ["02-sum", "export const sum = 2;\n"],
]) {
  write(`steps/${folder}/lesson.json`, '{ "title": "x" }\n');
  write(`steps/${folder}/package.json`, `{\n  "name": "@learn-mcp/${folder}",\n  "private": true\n}\n`);
  write(`steps/${folder}/src/main.ts`, body);
}

describe("inputsDigest", () => {
  it("is the same once the steps are renumbered and their packages renamed, and changes with a file", () => {
    const before = digest("02-sum", "01-echo");
    renameSync(path.join(root, "steps/02-sum"), path.join(root, "steps/03-sum"));
    renameSync(path.join(root, "steps/01-echo"), path.join(root, "steps/02-echo"));
    write("steps/03-sum/package.json", '{\n  "name": "@learn-mcp/03-sum",\n  "private": true\n}\n');
    write("steps/02-echo/package.json", '{\n  "name": "@learn-mcp/02-echo",\n  "private": true\n}\n');
    expect(digest("03-sum", "02-echo")).toBe(before);

    write("steps/03-sum/package.json", '{\n  "name": "@learn-mcp/03-sum",\n  "private": false\n}\n');
    expect(digest("03-sum", "02-echo")).not.toBe(before);
  });

  it("is the same when the role table's folders are renumbered, and changes when a role moves", () => {
    const reached = [{ files: [path.join(root, "steps/roles.json")], missing: [] }];
    const withRoles = (roles) => {
      write("steps/roles.json", `${JSON.stringify(roles, null, 2)}\n`);
      return inputsDigest(step("03-sum"), step("02-echo"), reached, root);
    };
    const before = withRoles({ server: "02-echo/src/main.ts" });
    expect(withRoles({ server: "05-echo/src/main.ts" })).toBe(before);
    expect(withRoles({ server: "03-sum/src/main.ts" })).not.toBe(before);
  });
});
