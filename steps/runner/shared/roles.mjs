// The role table (steps/roles.json): the one place that says which step's program plays which part.
// A step that needs an earlier step's program, and every script, finds it here; nothing else names a step by number.
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./repo.mjs";

export const ROLES_FILE = path.join(REPO_ROOT, "steps", "roles.json");

/** role name -> path relative to steps/ */
export const readRoles = (file = ROLES_FILE) => JSON.parse(readFileSync(file, "utf8"));

/** The absolute path of the program that plays `role`; throws, naming the known roles, for an unknown one. */
export function roleProgram(role, file = ROLES_FILE) {
  const roles = readRoles(file);
  if (!Object.hasOwn(roles, role))
    throw new Error(`no role "${role}" in ${file}; known: ${Object.keys(roles).join(", ")}`);
  return path.join(path.dirname(file), roles[role]);
}
