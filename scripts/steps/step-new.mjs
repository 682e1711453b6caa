// `pnpm step:new <slug> --after N [--root DIR]`: inserts a step after step N, as a copy of it (so its --diff is empty),
// and renumbers every later step wherever the repository names it. Nothing is written until the whole plan is valid.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { listSteps, REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { copyImporter, rewriteRepository } from "./renumber.mjs";

const USAGE = "usage: pnpm step:new <slug> --after N [--root DIR]";
const pad = (number) => String(number).padStart(2, "0");

function parseArgs(argv) {
  const args = [...argv];
  const take = (flag) => {
    const at = args.indexOf(flag);
    return at === -1 ? undefined : args.splice(at, 2)[1];
  };
  const after = take("--after");
  const root = path.resolve(take("--root") ?? REPO_ROOT);
  if (args.length !== 1 || after === undefined || !/^\d+$/.test(after)) throw new Error(USAGE);
  return { slug: args[0], after: Number(after), root };
}

/** What the insertion does, or an error saying why it cannot be done. */
export function planInsert(root, slug, after) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug)) throw new Error(`"${slug}" is no slug: lower case words joined by -`);
  const steps = listSteps(path.join(root, "steps"));
  const source = steps.find((step) => step.number === after);
  if (!source) throw new Error(`there is no step ${after} (steps: 01 to ${steps.at(-1)?.id ?? "none"})`);
  if (steps.some((step) => step.folder.slice(3) === slug)) throw new Error(`a step is already named ${slug}`);
  if (steps.length >= 99) throw new Error("steps are numbered with two digits: there is no room for a 100th");
  const later = steps.filter((step) => step.number > after);
  const renames = new Map(later.map((step) => [step.folder, `${pad(step.number + 1)}-${step.folder.slice(3)}`]));
  const next = later[0] && renames.get(later[0].folder);
  return { source, folder: `${pad(after + 1)}-${slug}`, later, renames, next };
}

const titleOf = (slug) => slug[0].toUpperCase() + slug.slice(1).replaceAll("-", " ");

/** The new chapter: title, one sentence, the generated blocks, the exercise and a Recap that links on. */
export function chapterSkeleton(plan, slug) {
  const number = plan.source.number + 1;
  const marker = (kind) => [`<!-- gen ${kind} ${number} -->`, "<!-- /gen -->"];
  const previous = `[chapter ${plan.source.id}](${plan.source.folder}.md)`;
  const next = plan.next ? [`- Next: [chapter ${plan.next.slice(0, 2)}](${plan.next}.md).`] : [];
  return [
    `# ${pad(number)} · ${titleOf(slug)}`,
    "",
    `This step starts as a copy of ${previous}; say in one sentence what it adds.`,
    "",
    "## See what changed",
    "",
    ...marker("stat"),
    "",
    `Run \`node steps/run.mjs ${number} --diff\` for every line:`,
    "",
    ...marker("diff"),
    "",
    "## Build it yourself",
    "",
    ...marker("exercise"),
    "",
    "## Recap",
    "",
    "- What the step adds, in one line.",
    ...next,
    "",
  ].join("\n");
}

/** Renumbers, then writes the copy of the source step, its lesson.json, its chapter and its lockfile importer. */
export function insertStep(root, plan, slug) {
  const changed = rewriteRepository(root, plan.renames, (n) => (n > plan.source.number ? n + 1 : n));
  for (const step of [...plan.later].reverse()) {
    const to = plan.renames.get(step.folder);
    renameSync(step.dir, path.join(root, "steps", to));
    const doc = path.join(root, "docs", `${step.folder}.md`);
    if (existsSync(doc)) renameSync(doc, path.join(root, "docs", `${to}.md`));
  }
  const dir = path.join(root, "steps", plan.folder);
  const skip = new Set(["node_modules", "lesson.json"]);
  cpSync(plan.source.dir, dir, { recursive: true, filter: (file) => !skip.has(path.basename(file)) });
  const pkg = readFileSync(path.join(dir, "package.json"), "utf8");
  writeFileSync(
    path.join(dir, "package.json"),
    pkg.replace(`"@learn-mcp/${plan.source.folder}"`, `"@learn-mcp/${plan.folder}"`),
  );
  const lesson = { title: titleOf(slug), part: plan.source.lesson.part, changes: [] };
  writeFileSync(path.join(dir, "lesson.json"), `${JSON.stringify(lesson, null, 2)}\n`);
  writeFileSync(path.join(root, "docs", `${plan.folder}.md`), chapterSkeleton(plan, slug));
  const lockFile = path.join(root, "pnpm-lock.yaml");
  if (existsSync(lockFile)) {
    const lock = readFileSync(lockFile, "utf8");
    const next = copyImporter(lock, plan.source.folder, plan.folder);
    if (next !== lock) writeFileSync(lockFile, next);
  }
  return changed;
}

function nextSteps(plan) {
  const n = String(plan.source.number + 1).padStart(2, "0");
  const renumbered = plan.later.map((step) => plan.renames.get(step.folder).slice(0, 2));
  return [
    "pnpm install --offline  (links the new step's node_modules; its lockfile importer is a copy of the source's)",
    `write the lesson in steps/${plan.folder}/ and list its files in lesson.json "changes"`,
    `fill docs/${plan.folder}.md, and point the "Next" link of docs/${plan.source.folder}.md at it`,
    `pnpm docs:sync  (${renumbered.length > 0 ? "the renumbered chapters' blocks are generated again" : "fills the new chapter's blocks"})`,
    // check:exercises re-checks each step whose record entry is stale: the new one and the one after it, whose
    // previous step it is. The renumbered steps stay fresh: the record's digests name steps by slug.
    `pnpm check:exercises  (once the lesson is written: re-checks step ${n}` +
      `${renumbered.length > 0 ? ` and step ${renumbered[0]}` : ""})`,
  ];
}

function main() {
  const { slug, after, root } = parseArgs(process.argv.slice(2));
  const plan = planInsert(root, slug, after);
  const changed = insertStep(root, plan, slug);
  console.log(`step:new: steps/${plan.folder} is a copy of steps/${plan.source.folder}`);
  for (const [from, to] of plan.renames) console.log(`  renumbered ${from} -> ${to}`);
  console.log(`  rewrote ${changed.length} files that named them: ${changed.join(", ") || "none"}`);
  const check = spawnSync(
    process.execPath,
    [path.join(import.meta.dirname, "../checks/check-steps.mjs"), "--root", root],
    { encoding: "utf8" },
  );
  for (const line of check.stdout
    .trim()
    .split("\n")
    .filter((line) => !line.startsWith("warning:"))) {
    console.log(`  ${line}`);
  }
  console.log("Next:");
  for (const line of nextSteps(plan)) console.log(`  - ${line}`);
  process.exitCode = check.status === 0 ? 0 : 1;
}

try {
  if (process.argv[1] === import.meta.filename) main();
} catch (error) {
  console.error(`step:new: ${error.message}`);
  process.exitCode = 1;
}
