// Turns bytes tapped from a pipe into wire-log text: whole lines, JSON-RPC only, long strings shortened.
// Bytes are held until their "\n" arrives and decoded only then, so a UTF-8 character split across chunks survives.

const LONG_STRING = 80;

export class LineFramer {
  #pending = [];

  /** Takes one chunk as written or read; returns the lines it completed, without "\n". */
  push(chunk) {
    const lines = [];
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      lines.push(this.#finish(chunk.subarray(start, newline)));
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.#pending.push(chunk.subarray(start));
    return lines;
  }

  /** The stream ended: a last line without "\n", if there is one. */
  end() {
    return this.#pending.length === 0 ? undefined : this.#finish(Buffer.alloc(0));
  }

  #finish(tail) {
    const text = Buffer.concat([...this.#pending, tail]).toString("utf8");
    this.#pending = [];
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}

function isJsonRpc(value) {
  const isMessage = (item) => item !== null && typeof item === "object" && !Array.isArray(item) && "jsonrpc" in item;
  return Array.isArray(value) ? value.length > 0 && value.every(isMessage) : isMessage(value);
}

/** The line as it should appear in the wire log, or undefined when it is not a JSON-RPC message. */
export function describeMessage(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return isJsonRpc(value) ? JSON.stringify(shorten(value)) : undefined;
}

const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Copies `value` with every string longer than LONG_STRING cut, keeping a note of how much was cut. */
export function shorten(value) {
  if (typeof value === "string") {
    if (value.length <= LONG_STRING) return value;
    // Never cut between the two halves of a surrogate pair.
    const keep = /[\ud800-\udbff]/.test(value[LONG_STRING - 1]) ? LONG_STRING - 1 : LONG_STRING;
    return `${value.slice(0, keep)}…(+${grouped(value.length - keep)} chars)`;
  }
  if (Array.isArray(value)) return value.map(shorten);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item)]));
  }
  return value;
}
