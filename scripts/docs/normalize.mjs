// The closed list of rules that make captured output stable enough to commit into docs.
// Each rule is one regexp anchored on its own context, so ordinary numbers (ports, counts, ids) pass through.
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// One path segment in running text ends at "/", whitespace, quotes, brackets, ":" (file:line) or ",".
const SEGMENT = "[^/\\s\"'`,:;()\\[\\]{}<>]+";

function tempRoots() {
  const roots = new Set(["/tmp", os.tmpdir(), privateTmp()]);
  return [...roots]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|");
}

// macOS reports /var/folders/... but processes print /private/var/folders/...; both are temporary.
function privateTmp() {
  return os.tmpdir().startsWith("/var/") ? `/private${os.tmpdir()}` : undefined;
}

/** The rules, in the order they apply; `root` is the directory printed as ".". */
export function rulesFor(root = REPO_ROOT) {
  return [
    // First, so that a repository checked out under /tmp still prints as "./steps/...".
    { name: "repository root", regexp: new RegExp(`${escape(root)}(?![\\w.-])`, "g"), replacement: "." },
    // The first directory below the temp root is the random mkdtemp one; names inside it are the program's own.
    {
      name: "temporary path",
      regexp: new RegExp(`(?<![\\w./-])(?:${tempRoots()})/${SEGMENT}`, "g"),
      replacement: "<tmp>",
    },
    {
      name: "ISO-8601 timestamp",
      regexp: /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?!\w)/g,
      replacement: "<time>",
    },
    // A unit right after the number is what makes it a duration: "port 3000" and "2 steps" have none.
    { name: "duration", regexp: /(?<![\w.])\d+(?:\.\d+)?\s?(ms|s)\b/g, replacement: "<n> $1" },
    { name: "process id", regexp: /\bpid(\s*[=:]?\s*)\d+\b/gi, replacement: "pid$1<pid>" },
    // A server that listens on port 0 gets a free port from the system: five digits everywhere (32768 up on Linux,
    // 49152 up on macOS and Windows). A port chosen by hand, such as 3000 or 9000, is part of the text.
    { name: "free loopback port", regexp: /\b(127\.0\.0\.1|localhost):\d{5}\b/g, replacement: "$1:<port>" },
  ];
}

export const rules = rulesFor();

// Only for `gen wire` blocks: values the wire shows that change on every run, each anchored on where the wire puts it.
export const wireRules = [
  {
    name: "session id",
    regexp: /(mcp-session-id: |sessionId=)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    replacement: "$1<session id>",
  },
  // A client id, PKCE challenge, state, key or interaction id: 36 or more URL-safe characters after "=", "/" or ":".
  { name: "random value", regexp: /(=|\/|":")[A-Za-z0-9_-]{36,}/g, replacement: "$1<random>" },
  {
    name: "encoded free loopback port",
    regexp: /(?<![\d.])(127\.0\.0\.1|localhost)%3A\d{5}\b/g,
    replacement: "$1%3A<port>",
  },
  { name: "issued-at time", regexp: /("\w+_at":)\d{9,}\b/g, replacement: "$1<time>" },
];

/** `normalize`, then the wire rules. */
export function normalizeWire(text, root = REPO_ROOT) {
  return wireRules.reduce((out, rule) => out.replace(rule.regexp, rule.replacement), normalize(text, root));
}

/** Applies every rule in order; `root` defaults to this repository. */
export function normalize(text, root = REPO_ROOT) {
  const list = root === REPO_ROOT ? rules : rulesFor(root);
  return list.reduce((out, rule) => out.replace(rule.regexp, rule.replacement), text);
}
