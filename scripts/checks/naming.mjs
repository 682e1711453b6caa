// Only the role table names a step by its folder: code that needs another step's program looks the role up.
// Each role must point at an existing program of a step, and a step may only use a role played by an earlier step.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { listStepFiles } from "../../steps/runner/shared/repo.mjs";
import { isCode } from "./closure.mjs";

// Files that are not code (chapters, results, lock files) may mention steps; fixture trees of tests are their own.
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

function codeFilesBelow(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith(".tmp-")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...codeFilesBelow(full));
    else if (isCode(entry.name) || entry.name === "package.json") files.push(full);
  }
  return files;
}

function readRoleTable(root, steps, errors) {
  const file = path.join(root, "steps", "roles.json");
  if (!existsSync(file)) return {};
  let roles;
  try {
    roles = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    errors.push(`steps/roles.json: cannot be read: ${error.message}`);
    return {};
  }
  for (const [role, program] of Object.entries(roles)) {
    const step = steps.find((candidate) => program.startsWith(`${candidate.name}/`));
    if (!step || !existsSync(path.join(root, "steps", program))) {
      errors.push(`steps/roles.json: role "${role}" names ${program}, which is no file of a step`);
    } else roles[role] = step;
  }
  return roles;
}

export function checkNaming(root, steps, errors) {
  const roles = readRoleTable(root, steps, errors);
  const outside = ["steps/runner", "steps/run.mjs", "scripts"].flatMap((rel) =>
    rel.endsWith(".mjs") ? [path.join(root, rel)].filter(existsSync) : codeFilesBelow(path.join(root, rel)),
  );
  const inside = steps.flatMap((step) =>
    listStepFiles(step.dir).map((rel) => ({ step, file: path.join(step.dir, rel) })),
  );
  for (const { step, file } of [...outside.map((file) => ({ file })), ...inside]) {
    if (!isCode(file) && path.basename(file) !== "package.json") continue;
    const text = readFileSync(file, "utf8");
    const where = path.relative(root, file);
    // A step may name itself (its package name does); naming another step is what the role table is for.
    for (const named of steps.filter((candidate) => candidate !== step && text.includes(candidate.name))) {
      errors.push(`${where}: names steps/${named.name}; find its program through steps/roles.json instead`);
    }
    if (step === undefined) continue;
    for (const [role, player] of Object.entries(roles)) {
      const used = text.includes(`"${role}"`) || text.includes(`'${role}'`);
      if (used && typeof player === "object" && player.number >= step.number) {
        errors.push(`${where}: uses role "${role}", played by steps/${player.name}, which is not an earlier step`);
      }
    }
  }
}
