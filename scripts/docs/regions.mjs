// Cuts `//#region NAME` … `//#endregion` snippets out of source files for the docs.
// Regions nest; every marker line is dropped from what is shown, so an outer region reads as plain code.

const OPEN = /^\s*\/\/\s*#region\s+(\S+)/;
const CLOSE = /^\s*\/\/\s*#endregion\b/;

/** Whether `line` is a `//#region` or `//#endregion` marker, which is never shown to a reader. */
export const isMarker = (line) => OPEN.test(line) || CLOSE.test(line);

/** Removes the indentation every non-blank line shares, so a snippet from inside a block starts at column 0. */
export function dedent(lines) {
  const indents = lines.filter((line) => line.trim() !== "").map((line) => line.match(/^[ \t]*/)[0].length);
  const common = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((line) => (line.trim() === "" ? "" : line.slice(common)));
}

/** The whole file without its region markers. */
export function wholeFile(text) {
  return trimBlankEnds(text.split("\n").filter((line) => !isMarker(line))).join("\n");
}

/** The lines of region `name`, markers dropped and dedented; throws an Error saying what is wrong. */
export function extractRegion(text, name) {
  const lines = text.split("\n");
  const { open, close } = findRegion(lines, name);
  const body = lines.slice(open + 1, close).filter((line) => !isMarker(line));
  return trimBlankEnds(dedent(body)).join("\n");
}

/** The 0-based indexes of region `name`'s opening and closing marker lines; throws when it is missing or ambiguous. */
export function findRegion(lines, name) {
  const starts = lines.flatMap((line, i) => (line.match(OPEN)?.[1] === name ? [i] : []));
  if (starts.length === 0) throw new Error(`region "${name}" not found`);
  if (starts.length > 1) throw new Error(`region "${name}" is opened ${starts.length} times`);
  return { open: starts[0], close: findClose(lines, starts[0]) };
}

// Counts depth so that an inner region's #endregion does not end the outer one.
function findClose(lines, start) {
  let depth = 0;
  for (let i = start + 1; i < lines.length; i++) {
    if (OPEN.test(lines[i])) depth += 1;
    else if (CLOSE.test(lines[i])) {
      if (depth === 0) return i;
      depth -= 1;
    }
  }
  throw new Error(`region "${lines[start].match(OPEN)[1]}" opened on line ${start + 1} is never closed`);
}

function trimBlankEnds(lines) {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === "") start += 1;
  while (end > start && lines[end - 1].trim() === "") end -= 1;
  return lines.slice(start, end);
}
