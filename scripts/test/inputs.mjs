// A step test file's inputs: what it reaches (closure.mjs), the role table's programs when it reaches the table, and
// the step's package.json, tsconfig.json and the root vitest config. Two sets of inputs compare by content, key by key.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { closure } from "../checks/closure.mjs";
import { comparableOld } from "../../steps/runner/shared/repo.mjs";

const isFile = (file) => existsSync(file) && statSync(file).isFile();
const posix = (rel) => rel.split(path.sep).join("/");

/** The programs the role table `table` names, as absolute paths, or the reason it cannot be read. */
function rolePrograms(table, stepsDir) {
  let roles;
  try {
    roles = JSON.parse(readFileSync(table, "utf8"));
  } catch (error) {
    return { programs: [], problem: `roles.json: ${error.message}` };
  }
  const isTable = roles !== null && typeof roles === "object" && !Array.isArray(roles);
  const programs = isTable ? Object.values(roles) : [];
  if (!isTable || programs.some((program) => typeof program !== "string")) {
    return { programs: [], problem: "roles.json is not a table of role names to program paths" };
  }
  return { programs: programs.map((program) => path.join(stepsDir, program)) };
}

/** closure() from `testFile`, widened by every role program (and what it reaches) when the test reaches roles.json. */
export function reach(testFile, root) {
  const first = closure([testFile]);
  const table = path.join(root, "steps", "roles.json");
  if (!first.files.has(table)) return first;
  const { programs, problem } = rolePrograms(table, path.dirname(table));
  const all = closure([testFile, ...programs.filter(isFile)]);
  programs.filter((program) => !isFile(program)).forEach((program) => all.missing.add(program));
  if (problem) all.unresolved.push(problem);
  return all;
}

/**
 * Reads files once per selection: package.json as text, so comparableOld can mask its name line; anything else as
 * a hash of its bytes. null stands for "named but missing".
 */
export function contentReader() {
  const cache = new Map();
  return (file) => {
    if (!cache.has(file)) {
      const value = !isFile(file)
        ? null
        : path.basename(file) === "package.json"
          ? readFileSync(file, "utf8")
          : createHash("sha256").update(readFileSync(file)).digest("hex");
      cache.set(file, value);
    }
    return cache.get(file);
  };
}

/**
 * `{ inputs, unresolved }` of the test `rel` in step folder `stepDir`. Keys are step-relative inside the step and
 * "/"-prefixed repo-relative outside it, so the root's tsconfig.json can never pass for the step's own.
 */
export function testInputs(stepDir, rel, { root, read }) {
  const { files, missing, unresolved } = reach(path.join(stepDir, rel), root);
  const always = ["package.json", "tsconfig.json"].map((name) => path.join(stepDir, name));
  always.push(path.join(root, "vitest.config.ts"));
  const keyOf = (file) => {
    const inside = posix(path.relative(stepDir, file));
    return inside === ".." || inside.startsWith("../") ? `/${posix(path.relative(root, file))}` : inside;
  };
  const inputs = new Map();
  for (const file of [...files, ...always, ...missing]) inputs.set(keyOf(file), read(file));
  return { inputs, unresolved };
}

/** The first way `after` differs from `before` ("src/server.ts changed"), or undefined when they are the same. */
export function difference(before, after) {
  for (const [key, value] of after) {
    if (!before.has(key)) return `${key} newly reached`;
    const old = before.get(key);
    if (comparableOld(key, old, value) === value) continue;
    if (value === null) return `${key} now missing`;
    return old === null ? `${key} no longer missing` : `${key} changed`;
  }
  const gone = [...before.keys()].find((key) => !after.has(key));
  return gone === undefined ? undefined : `${gone} no longer reached`;
}
