// A step test file's inputs: what it reaches (closure.mjs), the role table's programs when it reaches the table, and
// the step's package.json, tsconfig.json and the root vitest config. Two sets of inputs compare by content, key by key.
// Of package.json, a test depends on everything but the dependencies that nothing it reaches names.
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

//#region package-view
const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The part of a package.json a test can depend on: all of it but the name line (by the --diff rule) and the
 * dependencies no file of `reached` names as a quoted specifier ("zod", 'zod/v4', `tsx`, ...). Adding a package the
 * test never imports, resolves or starts cannot change what it does. Text that is not JSON is kept whole.
 */
export function packageView(text, reached) {
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return text;
  const sources = reached.filter(isFile).map((file) => readFileSync(file, "utf8"));
  const named = (dependency) => {
    const quoted = new RegExp(`["'\`]${escape(dependency)}(["'\`/])`);
    return sources.some((source) => quoted.test(source));
  };
  const { name: _, ...rest } = json;
  for (const field of DEPENDENCY_FIELDS) {
    const dependencies = rest[field];
    if (dependencies === null || typeof dependencies !== "object") continue;
    const kept = Object.entries(dependencies).filter(([dependency]) => named(dependency));
    if (kept.length > 0) rest[field] = Object.fromEntries(kept);
    else delete rest[field]; // none named: the same as a package.json without the field
  }
  return JSON.stringify(rest, null, 2);
}
//#endregion

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
  const pkg = inputs.get("package.json");
  if (typeof pkg === "string") inputs.set("package.json", packageView(pkg, [...files]));
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
