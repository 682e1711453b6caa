// `node scripts/bench/profile-summary.mjs <file.cpuprofile> [calls]`: one server's profile from `pnpm bench --http
// --profile dir`, as sampled time per part, per call when the calls are given. Samples are wall time while the thread
// runs JavaScript or waits in a native call (a write that wakes another process); idle time and start-up are left out.
import { readFileSync } from "node:fs";
import path from "node:path";

const [file, calls] = [process.argv[2], Number(process.argv[3] ?? 0)];
if (!file) {
  console.error("usage: profile-summary.mjs <file.cpuprofile> [calls]");
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, "utf8"));

//#region parts
/** The part a frame belongs to: an installed package by name, node's own modules, the program's own files, or V8. */
function partOf({ url, functionName }) {
  const installed = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (installed) return installed[1] === "tsx" || installed[1] === "esbuild" ? "loading (tsx)" : installed[1];
  if (url.startsWith("node:internal/modules") || url.startsWith("node:internal/bootstrap")) return "loading (node)";
  if (/^node:(_http|internal\/http)/.test(url)) return "node: http";
  // The web-standard objects a fetch-style handler works with: Request, Response, their streams, AbortSignal.
  if (/^node:internal\/(deps\/undici|webstreams|abort_controller|event_target|worker\/js_transferable)/.test(url))
    return "node: Request, Response, AbortSignal";
  if (/^node:(net|stream|internal\/stream|internal\/streams|child_process|internal\/child_process)/.test(url))
    return "node: net, pipes, streams";
  if (url.startsWith("node:")) return "node: other";
  if (url) return `own code (${path.basename(path.dirname(url))}/)`;
  return functionName.startsWith("(") ? functionName : `native ${functionName}`;
}
//#endregion

const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parts = new Map();
let busy = 0;
profile.samples.forEach((id, i) => {
  const part = partOf(nodes.get(id).callFrame);
  if (part === "(idle)" || part.startsWith("loading")) return;
  parts.set(part, (parts.get(part) ?? 0) + profile.timeDeltas[i]);
  busy += profile.timeDeltas[i];
});
const unit = calls > 0 ? "µs per call" : "ms";
const show = (micros) => (calls > 0 ? (micros / calls).toFixed(1) : (micros / 1000).toFixed(0));
console.log(`${path.basename(file)}: ${show(busy)} ${unit} sampled, start-up and idle left out`);
for (const [part, micros] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 14))
  console.log(`${show(micros).padStart(9)}  ${part}`);
