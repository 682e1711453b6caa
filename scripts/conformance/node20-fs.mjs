// Lets the conformance suite start on Node 20: it imports fs.globSync (Node 22), which only its tier-check command
// calls. Chosen over a node@22 npm package by measurement: that costs ~8 s and 185 MB per fresh install, this nothing,
// and every run's totals came out the same on Node 22 as on Node 20 with this. Use: `node --import node20-fs.mjs
// suite.js`.
import * as fs from "node:fs";
import { register } from "node:module";
import { isMainThread } from "node:worker_threads";

// Served in place of "fs" to the suite alone: every export of node:fs, plus a globSync that says why it is missing.
const SHIM = `data:text/javascript,${encodeURIComponent(`
export * from "node:fs";
export { default } from "node:fs";
export function globSync() { throw new Error("fs.globSync needs Node 22; on Node 20 the conformance suite runs without it"); }
`)}`;

/** The loader hook (it runs in the loader's own thread): "fs" imported by a file of the conformance package. */
export function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes("/@modelcontextprotocol/conformance/") === true;
  if (fromSuite && (specifier === "fs" || specifier === "node:fs")) return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}

// On a Node that has globSync there is nothing to supply.
if (isMainThread && typeof fs.globSync !== "function") register(import.meta.url);
