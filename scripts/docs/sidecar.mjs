// docs/.generated.json: for each command block, the digest of its inputs and of the body docs:sync wrote from them.
// A block is accepted without running only while both still match, so a changed input or a hand edit is always caught.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const SIDECAR = "docs/.generated.json";

export const keyOf = (block) => `${block.kind} ${block.args}`;
export const bodyDigest = (lines) => createHash("sha256").update(lines.join("\n")).digest("hex");
const isDigest = (value) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
const isTiming = (value) => ["firstByte", "end", "bareMs"].every((name) => Number.isFinite(value?.[name]));

/** The recorded entries by marker (`{ inputs, body, timing? }`); a missing or unreadable file records nothing. */
export function readSidecar(root) {
  const file = path.join(root, SIDECAR);
  if (!existsSync(file)) return new Map();
  try {
    const { blocks } = JSON.parse(readFileSync(file, "utf8"));
    const valid = Object.entries(blocks).filter(([, entry]) => isDigest(entry?.inputs) && isDigest(entry?.body));
    return new Map(
      valid.map(([key, { inputs, body, timing }]) => [key, { inputs, body, ...(isTiming(timing) && { timing }) }]),
    );
  } catch {
    return new Map();
  }
}

/** Writes `entries` sorted by marker, so that a change shows as a small diff; leaves an unchanged file alone. */
export function writeSidecar(root, entries) {
  const file = path.join(root, SIDECAR);
  if (entries.size === 0 && !existsSync(file)) return;
  const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const blocks = Object.fromEntries(sorted.map(([key, { inputs, body, timing }]) => [key, { inputs, body, timing }]));
  const text = `${JSON.stringify({ blocks }, null, 2)}\n`;
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
}

/**
 * For each command marker among `blocks` (each with the `body` it has in its doc): its inputs digest, or why there
 * is none, and whether the record vouches for it: same inputs, and every copy's body is the one recorded.
 */
export function planBlocks(blocks, recorded, inputsOf) {
  const plans = new Map();
  for (const block of blocks) {
    const key = keyOf(block);
    if (!plans.has(key)) {
      const { digest, undetermined } = inputsOf(block);
      const entry = recorded.get(key);
      plans.set(key, { digest, undetermined, accepted: entry !== undefined && entry.inputs === digest });
    }
    const plan = plans.get(key);
    plan.accepted &&= bodyDigest(block.body) === recorded.get(key).body;
  }
  return plans;
}

/**
 * The entries docs:sync records after generating: each marker with a digest and a body, including accepted ones,
 * and a demo's timing: the new one when it ran, the recorded one when it was accepted.
 * `all` says the docs read were all of them, so markers in no doc are dropped; otherwise they are kept.
 */
export function nextEntries(plans, resultOf, recorded, { all }) {
  const next = all ? new Map() : new Map(recorded);
  for (const [key, plan] of plans) {
    const result = resultOf(key);
    const timing = result?.accepted ? recorded.get(key)?.timing : result?.timing;
    next.delete(key);
    if (plan.digest !== undefined && result && !result.error) {
      next.set(key, { inputs: plan.digest, body: bodyDigest(result.body), ...(timing && { timing }) });
    }
  }
  return next;
}

/** How many markers `next` records differently from `recorded`, dropped ones included. */
export function differences(recorded, next) {
  const keys = new Set([...recorded.keys(), ...next.keys()]);
  const same = (key) =>
    recorded.get(key)?.inputs === next.get(key)?.inputs && recorded.get(key)?.body === next.get(key)?.body;
  return [...keys].filter((key) => !same(key)).length;
}
