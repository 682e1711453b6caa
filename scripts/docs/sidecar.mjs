// docs/.generated.json: for each command block, the digest of its inputs and of the body docs:sync wrote from them,
// and the Node major versions that printed that body from those inputs. A block is accepted without running only while
// both digests still match and this Node's major is among them, so a changed input, a hand edit or a Node release
// that prints something else is always caught.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export const SIDECAR = "docs/.generated.json";

export const keyOf = (block) => `${block.kind} ${block.args}`;
export const bodyDigest = (lines) => createHash("sha256").update(lines.join("\n")).digest("hex");
const isDigest = (value) => typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
const isTiming = (value) => ["firstByte", "end", "bareMs"].every((name) => Number.isFinite(value?.[name]));
const isMajors = (value) => Array.isArray(value) && value.every((major) => Number.isInteger(major));

/** This Node's major version, as the record keeps it. */
export const nodeMajor = () => Number(process.versions.node.split(".")[0]);

/** The recorded entries by marker (`{ inputs, body, nodes, timing? }`); a missing or unreadable file has none. */
export function readSidecar(root) {
  const file = path.join(root, SIDECAR);
  if (!existsSync(file)) return new Map();
  try {
    const { blocks } = JSON.parse(readFileSync(file, "utf8"));
    const valid = Object.entries(blocks).filter(
      ([, entry]) => isDigest(entry?.inputs) && isDigest(entry?.body) && isMajors(entry?.nodes),
    );
    return new Map(
      valid.map(([key, { inputs, body, nodes, timing }]) => [
        key,
        { inputs, body, nodes, ...(isTiming(timing) && { timing }) },
      ]),
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
  const blocks = Object.fromEntries(
    sorted.map(([key, { inputs, body, nodes, timing }]) => [key, { inputs, body, nodes, timing }]),
  );
  const text = `${JSON.stringify({ blocks }, null, 2)}\n`;
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file) || readFileSync(file, "utf8") !== text) writeFileSync(file, text);
}

/**
 * For each command marker among `blocks` (each with the `body` it has in its doc): its inputs digest, or why there
 * is none, and whether the record vouches for it: same inputs, recorded under this Node major, and every copy's body
 * is the one recorded. `otherNode` says the record has the inputs, but from other Node majors only.
 */
export function planBlocks(blocks, recorded, inputsOf) {
  const plans = new Map();
  for (const block of blocks) {
    const key = keyOf(block);
    if (!plans.has(key)) {
      const { digest, undetermined } = inputsOf(block);
      const entry = recorded.get(key);
      const sameInputs = entry !== undefined && entry.inputs === digest;
      const otherNode = sameInputs && !entry.nodes.includes(nodeMajor());
      plans.set(key, { digest, undetermined, accepted: sameInputs && !otherNode, otherNode });
    }
    const plan = plans.get(key);
    plan.accepted &&= bodyDigest(block.body) === recorded.get(key).body;
  }
  return plans;
}

/**
 * The entries docs:sync records after generating: each marker with a digest and a body, including accepted ones,
 * and a demo's timing. A block that ran adds this Node's major to those recorded when it printed the recorded body
 * from the recorded inputs, and keeps the recorded timing unless `force` ran every block to measure again: the times
 * are those of the sync that recorded the body, so a sync under another Node cannot swap in its own. Otherwise it
 * replaces the majors and the timing. `all` says the docs read were all of them, so markers in no doc are dropped;
 * otherwise they are kept.
 */
export function nextEntries(plans, resultOf, recorded, { all, force = false }) {
  const next = all ? new Map() : new Map(recorded);
  for (const [key, plan] of plans) {
    const result = resultOf(key);
    const entry = recorded.get(key);
    next.delete(key);
    if (plan.digest === undefined || !result || result.error) continue;
    if (result.accepted) {
      next.set(key, entry);
      continue;
    }
    const body = bodyDigest(result.body);
    const same = entry?.inputs === plan.digest && entry?.body === body;
    const nodes = same ? [...new Set([...entry.nodes, nodeMajor()])].sort((a, b) => a - b) : [nodeMajor()];
    const timing = (same && !force && entry.timing) || result.timing;
    next.set(key, { inputs: plan.digest, body, nodes, ...(timing && { timing }) });
  }
  return next;
}

/** How many markers `next` records differently from `recorded`, dropped ones included. */
export function differences(recorded, next) {
  const keys = new Set([...recorded.keys(), ...next.keys()]);
  const same = (key) =>
    recorded.get(key)?.inputs === next.get(key)?.inputs &&
    recorded.get(key)?.body === next.get(key)?.body &&
    String(recorded.get(key)?.nodes) === String(next.get(key)?.nodes);
  return [...keys].filter((key) => !same(key)).length;
}
