// Produces the fenced content of one gen block: code from files, output from real runs.
// Commands run in their own process group so a timeout kills everything they started, not just the shell.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fenced } from "./docblocks.mjs";
import { fileDiff } from "./diff-marker.mjs";
import { normalize, normalizeWire } from "./normalize.mjs";
import { exerciseSection } from "./exercise-section.mjs";
import { mapBlock, partSection } from "./part-marker.mjs";
import { extractRegion, wholeFile } from "./regions.mjs";
import { runInGroup, stopRunning } from "../shared/process-group.mjs";

export const TIMEOUT_MS = 120_000;
const LANGS = new Map([
  ...[".ts", ".mts", ".cts"].map((ext) => [ext, "ts"]),
  ...[".js", ".mjs", ".cjs"].map((ext) => [ext, "js"]),
  [".json", "json"],
  [".sh", "sh"],
  [".md", "md"],
]);

/** Kinds recorded in docs/.generated.json: they start processes, or type-check two steps (an exercise), too slow to
 * repeat on every check. The others only read files and need no concurrency limit. */
export const isCommand = (kind) => ["diff", "stat", "run", "wire", "exec", "exercise"].includes(kind);

// Own process groups get none of the signals meant for this process (Ctrl-C, a kill, a closed terminal): each is passed
// on to them here, and this process then exits as the signal would have ended it.
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
let passingOn = false;
function passSignalsOn() {
  if (passingOn) return;
  passingOn = true;
  for (const [signal, code] of Object.entries(EXIT_CODES)) {
    process.on(signal, () => stopRunning(signal).finally(() => process.exit(code)));
  }
}

/** Runs `command` with `args` at `cwd`; resolves with its output whatever the exit status. */
export function runCommand(command, args, { cwd, timeout = TIMEOUT_MS }) {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.FORCE_COLOR;
  passSignalsOn();
  return runInGroup(command, args, { cwd, env, timeoutMs: timeout });
}

function readSource(root, file) {
  const full = path.join(root, file);
  if (!file || !existsSync(full)) throw new Error(`file ${file || "(none)"} not found`);
  return readFileSync(full, "utf8");
}

const langOf = (file) => LANGS.get(path.extname(file)) ?? "text";

function code(args, root) {
  const [file, region] = args.split("#");
  const text = readSource(root, file);
  return fenced(region === undefined ? wholeFile(text) : extractRegion(text, region), langOf(file));
}

// The runner's step number is passed through as typed, after checking it is one. `onTiming` gets the run's first-byte
// and end times: the runner itself prints nothing before the demo, so its first byte is the demo's.
async function runner(args, flags, root, onTiming) {
  if (!/^\d+$/.test(args)) throw new Error(`expected a step number, got "${args}"`);
  const shown = ["node", "steps/run.mjs", args, ...flags].join(" ");
  const result = await runCommand(process.execPath, ["steps/run.mjs", args, ...flags], { cwd: root });
  if (result.timedOut) throw new Error(`\`${shown}\` timed out after ${TIMEOUT_MS / 1000} s`);
  if (result.status !== 0) {
    const tail = result.stderr.trimEnd().split("\n").slice(-8).join("\n");
    throw new Error(`\`${shown}\` exited with status ${result.status}\n${tail}`);
  }
  onTiming?.({ firstByteMs: result.firstByteMs ?? result.elapsedMs, elapsedMs: result.elapsedMs });
  return normalize(result.stdout, root).replace(/\s+$/, "");
}

// A marker's words as a shell splits them: '…' and "…" group, nothing is expanded or escaped.
const WORD = /(?:'[^']*'|"[^"]*"|[^\s'"]+)+/g;
export function splitWords(text) {
  if (text.replace(WORD, "").trim() !== "") throw new Error(`unclosed quote in "${text}"`);
  return (text.match(WORD) ?? []).map((word) => word.replace(/'([^']*)'|"([^"]*)"/g, (_, one, two) => one ?? two));
}

// "N [FILTER...]": the runner's --wire with the filters as written, volatile wire values replaced.
async function wire(args, root) {
  const [step, ...filters] = splitWords(args);
  return normalizeWire(await runner(step ?? "", ["--wire", ...filters], root), root);
}

// A failing command is shown honestly: its status becomes the block's last line.
async function exec(command, root) {
  if (!command) throw new Error("exec needs a command");
  const result = await runCommand("bash", ["-c", `{ ${command}\n} 2>&1`], { cwd: root });
  if (result.timedOut) throw new Error(`\`${command}\` timed out after ${TIMEOUT_MS / 1000} s`);
  const output = normalize(result.stdout, root).replace(/\s+$/, "");
  if (result.status === 0) return output;
  return `${output}${output ? "\n" : ""}(exit status ${result.status})`;
}

/** The lines that belong between a block's markers; throws an Error saying what went wrong. A `run` block also
 * reports its demo's times to `onTiming`. */
export async function generate({ kind, args }, root, { onTiming } = {}) {
  switch (kind) {
    case "code":
      return code(args, root);
    case "file":
      return fenced(readSource(root, args), langOf(args));
    case "diff":
      // "N FILE[#region]" is one file's part of the diff, cut in process; "N" alone is the runner's whole output.
      return fenced(/\s/.test(args) ? fileDiff(args, root) : await runner(args, ["--diff"], root), "diff");
    case "stat":
      return fenced(await runner(args, ["--diff", "--stat"], root), "text");
    case "run":
      return fenced(await runner(args, [], root, onTiming), "text");
    case "wire":
      return fenced(await wire(args, root), "text");
    case "exec":
      return fenced(await exec(args, root), "text");
    case "exercise":
      return exerciseSection(args, root);
    case "part":
      return partSection(args, root);
    case "map":
      return mapBlock(args, root);
  }
  throw new Error(`unknown gen kind "${kind}"`);
}
