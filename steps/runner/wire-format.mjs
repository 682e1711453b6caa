// Turns bytes tapped from a pipe into wire-log text: whole lines, long strings shortened, secrets masked, and lines
// that are not JSON-RPC marked as such. Bytes are held until their "\n" arrives, so a split UTF-8 character survives.

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

//#region mask
// Credentials never reach the terminal or a log, wherever they sit: any JSON key of these, at any depth, and the same
// names written as "name: value" or "name=value" in plain text (an Authorization header keeps its scheme).
const SECRET_KEYS = ["authorization", "x-api-key", "api_key", "access_token", "refresh_token", "id_token", "client_secret", "code_verifier", "password"];
const SECRET_IN_TEXT = new RegExp(`\\b(${SECRET_KEYS.join("|")})(["']?\\s*[:=]\\s*["']?)((?:Bearer|Basic)\\s+)?[^"'\\s,&;}]+`, "gi");
export const MASK = "***";

export const maskText = (text) => text.replace(SECRET_IN_TEXT, (_, key, separator, scheme = "") => `${key}${separator}${scheme}${MASK}`);
//#endregion

/** The line as it should appear in the wire log: a JSON-RPC message compact, anything else marked and quoted. */
export function describeLine(line) {
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (value !== undefined && isJsonRpc(value)) return JSON.stringify(shorten(value));
  return `(not JSON-RPC) ${JSON.stringify(shorten(maskText(line)))}`;
}

const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Copies `value` with secrets masked and every string longer than LONG_STRING cut, noting how much was cut. */
export function shorten(value) {
  if (typeof value === "string") {
    if (value.length <= LONG_STRING) return value;
    // Never cut between the two halves of a surrogate pair.
    const keep = /[\ud800-\udbff]/.test(value[LONG_STRING - 1]) ? LONG_STRING - 1 : LONG_STRING;
    return `${value.slice(0, keep)}…(+${grouped(value.length - keep)} chars)`;
  }
  if (Array.isArray(value)) return value.map(shorten);
  if (value !== null && typeof value === "object") {
    const secret = (key) => SECRET_KEYS.includes(key.toLowerCase());
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, secret(key) ? MASK : shorten(item)]));
  }
  return value;
}
