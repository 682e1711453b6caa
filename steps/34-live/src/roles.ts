// Finds an earlier step's program through the role table at the top of steps/, the one file that names steps.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const table = new URL("../../roles.json", import.meta.url);

/** The absolute path of the program that plays `role` in steps/roles.json. */
export function roleProgram(role: string): string {
  const roles = JSON.parse(readFileSync(table, "utf8")) as Record<string, string>;
  if (!Object.hasOwn(roles, role)) throw new Error(`no role "${role}" in steps/roles.json`);
  return fileURLToPath(new URL(roles[role]!, table));
}
