// The --wire filters (--only, --from, --first, --cut): pick exchanges out of a finished wire log, whole, in log order.
// The unit is what a reader asks about: an HTTP exchange (every line of one `[… http N]`), or a stdio request with
// its answer; the demo's own lines go, since a filter asks for the wire.

/** Each filter flag takes one value; --only may be given more than once. */
export const WIRE_FILTER_FLAGS = ["--only", "--from", "--first", "--cut"];

const WIRE_LINE = /^(->|<-) \[([^\]]+)\] (.*)$/;
const HTTP_LABEL = /(^|\/)http \d+$/;

/**
 * Takes the filter flags and their values out of `argv`: `{ filter, rest }`, `filter` undefined when none was given,
 * or `{ problem }` for a flag without a value or a count that is not a positive whole number.
 */
export function takeWireFilters(argv) {
  const filter = { only: [] };
  const rest = [];
  let given = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!WIRE_FILTER_FLAGS.includes(flag)) {
      rest.push(flag);
      continue;
    }
    const value = argv[++i];
    if (value === undefined || value === "") return { problem: `${flag} needs a value.` };
    given = true;
    if (flag === "--only") filter.only.push(value);
    else if (flag === "--from") filter.from = value;
    else if (!/^[1-9]\d*$/.test(value)) return { problem: `${flag} takes a positive whole number, got "${value}".` };
    else filter[flag.slice(2)] = Number(value);
  }
  return { filter: given ? filter : undefined, rest };
}

/** The exchange a wire line belongs to; undefined for a line that is not a wire line. */
function unitOf(line, index) {
  const match = WIRE_LINE.exec(line);
  if (!match) return undefined;
  const [, direction, label, text] = match;
  if (HTTP_LABEL.test(label)) return label;
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return `line ${index}`;
  }
  if (message === null || typeof message !== "object" || message.id === undefined || message.id === null) {
    return `line ${index}`;
  }
  // A request and its answer share an id, and the side that sent the request: the answer travels the other way.
  const asker = "method" in message ? direction : direction === "->" ? "<-" : "->";
  return `${label} ${asker} ${JSON.stringify(message.id)}`;
}

/** The units of a log in the order their first line came, each with the indexes of its lines. */
function unitsOf(lines) {
  const units = new Map();
  lines.forEach((line, index) => {
    const key = unitOf(line, index);
    if (key === undefined) return;
    if (!units.has(key)) units.set(key, []);
    units.get(key).push(index);
  });
  return [...units.values()];
}

const cutLine = (line, width) => (width !== undefined && line.length > width ? `${line.slice(0, width)} …` : line);

/** The lines of `text` (a whole wire log) that `filter` keeps, as text; empty when nothing matched. */
export function filterWire(text, { only = [], from, first, cut } = {}) {
  const lines = text.split("\n");
  // --cut alone keeps every line, the demo's own included: it only narrows them.
  if (only.length === 0 && from === undefined && first === undefined) {
    return lines.map((line) => cutLine(line, cut)).join("\n");
  }
  const has = (unit, wanted) => unit.some((index) => lines[index].includes(wanted));
  let kept = unitsOf(lines).filter((unit) => only.length === 0 || only.some((wanted) => has(unit, wanted)));
  if (from !== undefined) {
    const start = kept.findIndex((unit) => has(unit, from));
    kept = start === -1 ? [] : kept.slice(start);
  }
  if (first !== undefined) kept = kept.slice(0, first);
  const shown = new Set(kept.flat());
  const out = lines.filter((_, index) => shown.has(index)).map((line) => cutLine(line, cut));
  return out.length === 0 ? "" : `${out.join("\n")}\n`;
}

/** What a filter asked for, in the words of the command line, for the note shown when nothing matched. */
export function describeFilter({ only = [], from, first, cut }) {
  const words = [...only.map((text) => `--only ${JSON.stringify(text)}`)];
  if (from !== undefined) words.push(`--from ${JSON.stringify(from)}`);
  if (first !== undefined) words.push(`--first ${first}`);
  if (cut !== undefined) words.push(`--cut ${cut}`);
  return words.join(" ");
}
