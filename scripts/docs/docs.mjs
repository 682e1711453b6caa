// `node scripts/docs/docs.mjs sync|check [--force] [--root DIR] [FILE...]`: regenerates or verifies every gen block.
// All blocks are generated before anything is written or judged, so output order never depends on timing. A command
// block whose inputs and body are as docs/.generated.json records them is accepted without running (--force runs it).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import { currentBody, parseDoc, rewrite } from "./docblocks.mjs";
import { generate, isCommand } from "./generate.mjs";
import { inputsReader } from "./block-inputs.mjs";
import {
  differences,
  keyOf,
  nextEntries,
  nodeMajor,
  planBlocks,
  readSidecar,
  SIDECAR,
  writeSidecar,
} from "./sidecar.mjs";
import { chapterBlankProblems } from "./exercise-section.mjs";
import { chapterFiles, chapterRefProblems } from "./chapter-refs.mjs";
import { voiceProblems } from "./voice.mjs";
import { asMultiples, measureBareStart, missedTargets } from "./timing.mjs";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { createLimit } from "../shared/limit.mjs";

const CONCURRENCY = 2;
const DIFF_LINES = 30;

function parseArgs(argv) {
  const [mode, ...flags] = argv;
  const rest = flags.filter((arg) => arg !== "--force");
  const rootAt = rest.indexOf("--root");
  const root = rootAt === -1 ? REPO_ROOT : path.resolve(rest.splice(rootAt, 2)[1]);
  if (mode !== "sync" && mode !== "check")
    throw new Error("usage: docs.mjs sync|check [--force] [--root DIR] [FILE...]");
  const files = rest.map((file) => path.relative(root, path.resolve(root, file)));
  return { mode, root, files, force: flags.includes("--force") };
}

function listDocs(root) {
  const docsDir = path.join(root, "docs");
  const chapters = existsSync(docsDir)
    ? readdirSync(docsDir)
        .filter((name) => name.endsWith(".md"))
        .sort()
    : [];
  const docs = chapters.map((name) => `docs/${name}`);
  return existsSync(path.join(root, "README.md")) ? [...docs, "README.md"] : docs;
}

// Identical markers in several chapters are generated once; results are looked up by marker, never by finish order.
// An accepted block keeps the body it has, which every copy shares: that is what planBlocks checked. The bare start
// that demo times are measured against is taken first, alone, and only when a demo is going to run.
async function generateAll(blocks, root, accepted) {
  const unique = [...new Map(blocks.map((block) => [keyOf(block), block])).values()];
  const bareMs = unique.some((block) => block.kind === "run" && !accepted(block))
    ? await measureBareStart()
    : undefined;
  const results = new Map();
  const settle = async (block) => {
    if (accepted(block)) return results.set(keyOf(block), { body: block.body, accepted: true });
    let timing;
    const onTiming = (times) => (timing = asMultiples(times, bareMs));
    const result = await generate(block, root, { onTiming }).then(
      (body) => ({ body, timing }),
      (error) => ({ error: error.message }),
    );
    results.set(keyOf(block), result);
  };
  await Promise.all(unique.filter((block) => !isCommand(block.kind)).map(settle));
  // Demos one at a time, so that the time each records is its own, not shared with another command's.
  for (const block of unique.filter((block) => block.kind === "run")) await settle(block);
  const limit = createLimit(CONCURRENCY);
  const others = unique.filter((block) => isCommand(block.kind) && block.kind !== "run");
  await Promise.all(others.map((block) => limit(() => settle(block))));
  return (key) => results.get(key);
}

function shortDiff(where, before, after) {
  const patch = createTwoFilesPatch(`${where} (in the doc)`, `${where} (generated)`, before, after, "", "", {
    context: 2,
  });
  const lines = patch.split("\n").filter((line) => !/^={10,}$/.test(line) && line !== "");
  const more = lines.length - DIFF_LINES;
  const shown = [...lines.slice(0, DIFF_LINES), ...(more > 0 ? [`… ${more} more lines`] : [])];
  return shown.map((line) => `    ${line}`).join("\n");
}

// Compares one doc's blocks with their generated bodies; returns what is stale, what failed, and the new text.
function judgeDoc(doc, text, resultOf) {
  const { lines, blocks, errors } = parseDoc(text);
  const problems = errors.map((error) => `${doc}:${error.line}: ${error.message}`);
  const stale = [];
  const bodies = blocks.map((block) => {
    const marker = `gen ${block.kind} ${block.args}`;
    const result = resultOf(keyOf(block));
    if (result.error) problems.push(`${doc}:${block.line}: ${marker}: ${result.error}`);
    if (result.error || result.body.join("\n") === currentBody(lines, block).join("\n")) return undefined;
    const where = `${doc}:${block.line}`;
    const body = currentBody(lines, block);
    const before = body.length === 0 ? "" : body.join("\n") + "\n";
    stale.push({ where, marker, diff: shortDiff(where, before, result.body.join("\n") + "\n") });
    return result.body;
  });
  return { blocks: blocks.length, problems, stale, text: rewrite(lines, blocks, bodies) };
}

// Warnings, not failures: a demo's times depend on the machine's load. At most three demos may wait on purpose.
function timingWarnings(blocks, entries) {
  const warnings = [];
  for (const [key, block] of new Map(blocks.filter((b) => b.kind === "run").map((b) => [keyOf(b), b]))) {
    const timing = entries.get(key)?.timing;
    const missed = timing ? missedTargets(timing) : [];
    if (missed.length > 0) warnings.push(`warning: demo of step ${block.args}: ${missed.join(", ")}`);
  }
  if (warnings.length > 3) warnings.push(`warning: ${warnings.length} demos miss their time targets; at most 3 may`);
  return warnings;
}

function report(mode, judged, commands) {
  const blocks = judged.reduce((sum, doc) => sum + doc.blocks, 0);
  const stale = judged.flatMap((doc) => doc.stale);
  const problems = judged.flatMap((doc) => doc.problems);
  if (mode === "check") {
    for (const block of stale) console.log(`stale: ${block.where} <!-- ${block.marker} -->\n${block.diff}`);
  }
  // Errors share stdout with the summary so that they stay in order when piped.
  for (const problem of problems) console.log(`error: ${problem}`);
  const parts = [`${blocks} blocks in ${judged.length} files`];
  parts.push(`${commands.ran} commands run, ${commands.accepted} accepted unchanged`);
  if (commands.otherNode > 0) {
    parts.push(
      `${commands.otherNode} run because ${SIDECAR} has them from other Node versions, not Node ${nodeMajor()}`,
    );
  }
  if (mode === "sync") parts.push(`${stale.length} rewritten`);
  if (commands.unrecorded > 0 && mode === "sync") parts.push(`${commands.unrecorded} updated in ${SIDECAR}`);
  if (commands.unrecorded > 0 && mode === "check") {
    parts.push(`${commands.unrecorded} not as recorded in ${SIDECAR} (pnpm docs:sync records them)`);
  }
  if (mode === "check" && stale.length > 0) {
    parts.push(`${stale.length} stale (${stale.map((block) => block.where).join(", ")}); run pnpm docs:sync`);
  }
  if (problems.length > 0) parts.push(`${problems.length} errors`);
  else if (mode === "check" && stale.length === 0) parts.push("all up to date");
  console.log(`docs: ${parts.join(", ")}`);
  return problems.length > 0 || (mode === "check" && stale.length > 0) ? 1 : 0;
}

// Every block with the body it has in its doc, which is what the sidecar's body digest is compared with.
function blocksOf(text) {
  const { lines, blocks } = parseDoc(text);
  return blocks.map((block) => ({ ...block, body: currentBody(lines, block) }));
}

async function main() {
  const { mode, root, files, force } = parseArgs(process.argv.slice(2));
  const docs = files.length > 0 ? files : listDocs(root);
  const texts = docs.map((doc) => readFileSync(path.join(root, doc), "utf8"));
  const blocks = texts.flatMap(blocksOf);
  const recorded = readSidecar(root);
  const plans = planBlocks(
    blocks.filter((block) => isCommand(block.kind)),
    recorded,
    inputsReader(root),
  );
  const resultOf = await generateAll(blocks, root, (block) => !force && plans.get(keyOf(block))?.accepted === true);
  const judged = docs.map((doc, i) => judgeDoc(doc, texts[i], resultOf));
  judged.forEach((doc, i) => doc.problems.push(...chapterBlankProblems(root, docs[i], texts[i])));
  const chapters = chapterFiles(root);
  judged.forEach(
    (doc, i) => docs[i].startsWith("docs/") && doc.problems.push(...chapterRefProblems(docs[i], texts[i], chapters)),
  );
  // The voice rule reads the text as generated, so a comment a sync brings into a chapter is judged too.
  judged.forEach((doc, i) => docs[i].startsWith("docs/") && doc.problems.push(...voiceProblems(docs[i], doc.text)));
  const next = nextEntries(plans, resultOf, recorded, { all: files.length === 0, force });
  if (mode === "sync") {
    judged.forEach((doc, i) => doc.text !== texts[i] && writeFileSync(path.join(root, docs[i]), doc.text));
    writeSidecar(root, next);
  }
  for (const warning of timingWarnings(blocks, next)) console.log(warning);
  const accepted = [...plans.keys()].filter((key) => resultOf(key).accepted).length;
  const otherNode = [...plans.values()].filter((plan) => plan.otherNode && !force).length;
  const commands = { ran: plans.size - accepted, accepted, otherNode, unrecorded: differences(recorded, next) };
  process.exitCode = report(mode, judged, commands);
}

main().catch((error) => {
  console.error(`docs: ${error.message}`);
  process.exitCode = 1;
});
