// The shared log behind --wire: the demo's stdout and every process's wire lines are appended to one file.
// One O_APPEND file puts lines from all processes in the order they were written; the runner copies it out as it grows.
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isAlive } from "./shared/processes.mjs";
import { describeFilter, filterWire } from "./wire-filter.mjs";

const POLL_MS = 30;
// The folder's name carries the runner's pid, so a later run can tell a log whose runner died from one in use.
const PREFIX = "learn-mcp-wire-";

/** Removes the logs of runners that were killed before they could clean up. */
export function removeStaleLogs(dir = tmpdir()) {
  for (const name of readdirSync(dir)) {
    const pid = Number(name.startsWith(PREFIX) ? name.slice(PREFIX.length).split("-")[0] : NaN);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** With `filter` (wire-filter.mjs) nothing is copied until the demo ends: which exchanges match is known only then. */
export function openWireLog(filter) {
  removeStaleLogs();
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  const path = join(dir, "wire.log");
  const appendFd = openSync(path, "a"); // Given to the demo as its stdout.
  const readFd = openSync(path, "r");
  const buffer = Buffer.alloc(64 * 1024);
  let position = 0;

  function copyNewBytes() {
    let read;
    while ((read = readSync(readFd, buffer, 0, buffer.length, position)) > 0) {
      position += read;
      if (!process.stdout.destroyed) process.stdout.write(Buffer.from(buffer.subarray(0, read)));
    }
  }
  const timer = filter ? undefined : setInterval(copyNewBytes, POLL_MS);

  function writeFiltered(text) {
    const kept = filterWire(text, filter);
    if (kept === "") console.error(`(--wire ${describeFilter(filter)}: nothing in the wire log matched.)`);
    else if (!process.stdout.destroyed) process.stdout.write(kept);
  }

  /** Copies what is left, or what the filter keeps; removes the file; says whether any JSON-RPC message was logged. */
  function finish() {
    clearInterval(timer);
    const text = readFileSync(path, "utf8");
    if (filter) writeFiltered(text);
    else copyNewBytes();
    const sawMessages = /^(->|<-) \[[^\]]*\] (?!\(not (JSON-RPC|shown)\))/m.test(text);
    closeSync(readFd);
    rmSync(dir, { recursive: true, force: true });
    return sawMessages;
  }

  return { path, appendFd, closeAppend: () => closeSync(appendFd), finish };
}
