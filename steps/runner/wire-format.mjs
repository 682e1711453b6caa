// Turns bytes tapped from a pipe into wire-log text: whole lines, long strings shortened, secrets masked, and lines
// that are not JSON-RPC marked as such. Bytes are held until their "\n" arrives, so a split UTF-8 character survives.

const LONG_STRING = 80;
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

// A demo's peer may send a line without end; the tap keeps at most this much of one, like the servers it watches.
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export class LineFramer {
  #pending = [];
  #pendingBytes = 0;
  #max;

  constructor(maxLineBytes = MAX_LINE_BYTES) {
    this.#max = maxLineBytes;
  }

  /**
   * Takes one chunk as written or read; returns the lines it completed, without "\n" ({ bytes, limit } for one too
   * long).
   */
  push(chunk) {
    const lines = [];
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline !== -1) {
      this.#keep(chunk.subarray(start, newline));
      lines.push(this.#finish());
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length) this.#keep(chunk.subarray(start));
    return lines;
  }

  /** The stream ended: a last line without "\n", if there is one. */
  end() {
    return this.#pendingBytes === 0 ? undefined : this.#finish();
  }

  // Past the limit the bytes are counted, not kept.
  #keep(bytes) {
    this.#pendingBytes += bytes.length;
    if (this.#pendingBytes <= this.#max) this.#pending.push(bytes);
    else this.#pending = [];
  }

  #finish() {
    const size = this.#pendingBytes;
    const text = size > this.#max ? undefined : Buffer.concat(this.#pending).toString("utf8");
    [this.#pending, this.#pendingBytes] = [[], 0];
    if (text === undefined) return { bytes: size, limit: this.#max };
    return text.endsWith("\r") ? text.slice(0, -1) : text;
  }
}

function isJsonRpc(value) {
  const isMessage = (item) => item !== null && typeof item === "object" && !Array.isArray(item) && "jsonrpc" in item;
  return Array.isArray(value) ? value.length > 0 && value.every(isMessage) : isMessage(value);
}

//#region mask
// Credentials never reach the terminal or a log, wherever they sit: any JSON key of these, at any depth, and the same
// names written as "name: value" or "name=value" in plain text, a JSON string included.
const SECRET_KEYS = [
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "api_key",
  "apikey",
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "code_verifier",
  "password",
  "registration_access_token",
];
const VALUE_KEYS = SECRET_KEYS.filter((key) => !key.endsWith("authorization")); // an Authorization value: below
const SECRET_IN_TEXT = new RegExp(`\\b(${VALUE_KEYS.join("|")})(["']?\\s*[:=]\\s*["']?)[^"'\\s,&;}]+`, "gi");
// An Authorization value is masked whatever its scheme, to the end of the value; a scheme word it starts with stays.
const SCHEMES = "Bearer|Basic|Digest|DPoP|Token|Negotiate|NTLM|HOBA|Mutual|GNAP|PrivateToken|AWS4-HMAC-SHA256";
const AUTHORIZATION_IN_TEXT = new RegExp(
  `\\b((?:proxy-)?authorization)(["']?\\s*[:=]\\s*["']?)((?:${SCHEMES})\\s+)?[^"'&\\r\\n]+`,
  "gi",
);
export const MASK = "***";

/** An Authorization header's value, as a header holds it whole: a known scheme word kept, the rest masked. A first
 * word that is no known scheme may be the credential itself: it is masked too. */
const AUTHORIZATION_VALUE = new RegExp(`^((?:${SCHEMES}) +)?\\S[^]*$`, "i");
export const maskAuthorization = (value) => value.replace(AUTHORIZATION_VALUE, (_, scheme = "") => `${scheme}${MASK}`);

// Query and form parameters that carry a credential under a name too common to mask as a JSON key: OAuth's
// authorization code, and the token or key some APIs take in the URL.
const SECRET_PARAMETER = /(^|[?&#;])(code|token|key|apikey|api_key|access_token|client_secret)=[^&#\s"']+/gi;
export const maskText = (text) =>
  text
    .replace(AUTHORIZATION_IN_TEXT, (_, key, separator, scheme = "") => `${key}${separator}${scheme}${MASK}`)
    .replace(SECRET_IN_TEXT, (_, key, separator) => `${key}${separator}${MASK}`)
    .replace(SECRET_PARAMETER, `$1$2=${MASK}`);
//#endregion

/** The line as it should appear in the wire log: a JSON-RPC message compact, anything else marked and quoted. */
export function describeLine(line) {
  if (typeof line !== "string")
    return `(not shown) a line of ${grouped(line.bytes)} bytes, over the ${grouped(line.limit)} the tap keeps`;
  let value;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (value !== undefined && isJsonRpc(value)) return JSON.stringify(shorten(value));
  return `(not JSON-RPC) ${JSON.stringify(shorten(maskText(line)))}`;
}

/**
 * Copies `value` with secrets masked (by key, and inside strings) and every string longer than LONG_STRING cut, noting
 * how much was cut.
 */
export function shorten(value) {
  if (typeof value === "string") {
    value = maskText(value); // before the cut: a credential cut in two would no longer be recognised
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
