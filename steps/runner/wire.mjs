// Preloaded (--import, and through NODE_OPTIONS into every Node process below the demo) by `run.mjs N --wire`:
// reports each line on a child's stdin/stdout by wrapping write, end and push, never by adding listeners, and each
// HTTP exchange made with fetch (wire-http.mjs).
import { ChildProcess } from "node:child_process";
import { openSync, writeSync } from "node:fs";
import { basename } from "node:path";
import { describeLine, LineFramer } from "./wire-format.mjs";
import { tapFetch } from "./wire-http.mjs";

// MCP_WIRE_LOG: the file every process appends to. MCP_WIRE_LABEL: this process's own label, set by its parent's tap.
const logPath = process.env.MCP_WIRE_LOG;
const ownLabel = process.env.MCP_WIRE_LABEL ?? "";
const INSTALLED = Symbol.for("learn-mcp.wire");
// Node options whose next argument is a value, not the script.
const TAKES_VALUE = new Set([
  "--import",
  "--require",
  "-r",
  "--loader",
  "--experimental-loader",
  "-e",
  "--eval",
  "-p",
  "--print",
  "--env-file",
  "-C",
  "--conditions",
]);

let logFd;
// Only ever the log file: in a server, stdout is the protocol and must carry nothing else.
function log(text) {
  try {
    logFd ??= openSync(logPath, "a");
    writeSync(logFd, text);
  } catch {
    // A broken log must never break the program being observed.
  }
}

function report(direction, label, line) {
  log(`${direction} [${label}] ${describeLine(line)}\n`);
}

/** A child is named by its script for Node, by its program otherwise; never by pid, so output is repeatable. */
function childName({ file, args = [] }) {
  const program = basename(file);
  if (file !== process.execPath && !/^node(\.exe)?$/.test(program)) return program;
  for (let i = 1; i < args.length; i++) {
    if (TAKES_VALUE.has(args[i])) i += 1;
    else if (!args[i].startsWith("-")) return basename(args[i]);
  }
  return program;
}

function toBuffer(chunk, encoding) {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return undefined;
}

/** Returns (chunk, encoding) => void that frames a stream's bytes and reports its messages; null ends the stream. */
function tap(direction, label) {
  const framer = new LineFramer();
  return (chunk, encoding) => {
    try {
      const lines = chunk === null ? [framer.end()] : framer.push(toBuffer(chunk, encoding) ?? Buffer.alloc(0));
      for (const line of lines) if (line !== undefined) report(direction, label, line);
    } catch {
      // As above: observing must not change what the program does.
    }
  };
}

function tapChild(child, label) {
  if (child.stdin) {
    const sent = tap("->", label);
    const { write, end } = child.stdin;
    child.stdin.write = function (...args) {
      sent(args[0], args[1]);
      return write.apply(this, args);
    };
    child.stdin.end = function (...args) {
      if (args[0] != null && typeof args[0] !== "function") sent(args[0], args[1]);
      sent(null);
      return end.apply(this, args);
    };
  }
  if (child.stdout) {
    // push is how the socket hands incoming bytes to the stream; wrapping it sees them without taking them.
    const received = tap("<-", label);
    const { push } = child.stdout;
    child.stdout.push = function (...args) {
      received(args[0], args[1]);
      return push.apply(this, args);
    };
  }
}

function install() {
  const originalSpawn = ChildProcess.prototype.spawn;
  let spawned = 0;
  ChildProcess.prototype.spawn = function (options) {
    // tsx's compiler service talks to its parent in esbuild's own binary protocol: it is tooling, not the demo's wire.
    if (basename(options.file) === "esbuild") return originalSpawn.call(this, options);
    spawned += 1;
    const label = `${ownLabel ? `${ownLabel}/` : ""}${spawned} ${childName(options)}`;
    options.envPairs = (options.envPairs ?? []).filter((pair) => !pair.startsWith("MCP_WIRE_LABEL="));
    options.envPairs.push(`MCP_WIRE_LABEL=${label}`);
    const result = originalSpawn.call(this, options);
    tapChild(this, label);
    return result;
  };
  if (typeof globalThis.fetch === "function") {
    globalThis.fetch = tapFetch(
      globalThis.fetch,
      (direction, label, text) => log(`${direction} [${label}] ${text}\n`),
      ownLabel,
    );
  }
}

// Loaded both by --import and NODE_OPTIONS in the demo: patch once.
if (logPath && !globalThis[INSTALLED]) {
  globalThis[INSTALLED] = true;
  install();
}
