// Turns what tsc and vitest report into what a learner reads: errors as file:line and a message, tests by name with
// their state, and failure messages without the tooling's stack frames or the check's temporary paths.

// tsc --pretty false: "src/a.ts(12,5): error TS2322: message", continued on indented lines.
const TSC_LINE = /^(.+?)\((\d+),(\d+)\): error TS(\d+): (.*)$/;
const TSC_BARE = /^error TS(\d+): (.*)$/;
// Lines that are the tooling talking, not the learner's program: stack frames, Node's rethrow banner, a caret line.
const NOISE = [/^\s+at\s/, /^node:internal\//, /^\s*triggerUncaughtException\(/, /^\s*\^+\s*$/, /^Error: STACK_TRACE_ERROR$/];

/** Every error tsc printed, as { file, line, code, message }. */
export function typeErrorsOf(output) {
  const errors = [];
  for (const line of output.split("\n")) {
    const located = TSC_LINE.exec(line);
    const bare = TSC_BARE.exec(line);
    if (located) errors.push({ file: located[1], line: Number(located[2]), code: Number(located[4]), message: located[5] });
    else if (bare) errors.push({ file: "", line: 0, code: Number(bare[1]), message: bare[2] });
    else if (line.startsWith("  ") && errors.length > 0) errors.at(-1).message += `\n${line.trim()}`;
  }
  return errors;
}

/** A message with the check's copy named as the learner's folder (paths relative to it) and the noise left out. */
export function cleanMessage(text, copy) {
  const local = text.split(`file://${copy}/`).join("").split(`${copy}/`).join("").split(copy).join(".");
  const lines = local.split("\n").filter((line) => !NOISE.some((noise) => noise.test(line)));
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim();
}

/** The first `count` lines of a message, to quote it without its diff or its output in full. */
export const firstLines = (message, count) => {
  const lines = message.split("\n");
  return lines.length <= count ? message : `${lines.slice(0, count).join("\n")}\n…`;
};

const isTimeout = (message) => /timed out in \d+ms|STACK_TRACE_ERROR/.test(message);

/**
 * vitest's json report as { tests, fileErrors }: each test { name, file, line, status, message, timedOut }, named
 * "file > describe > test" as check:exercises records it; a file that failed with no failing test is a file error.
 */
export function vitestResults(report, copy) {
  const tests = [];
  const fileErrors = [];
  for (const file of report.testResults ?? []) {
    const rel = file.name.startsWith(`${copy}/`) ? file.name.slice(copy.length + 1) : file.name;
    const own = (file.assertionResults ?? []).map((result) => {
      const raw = result.failureMessages?.[0] ?? "";
      return {
        name: [rel, ...(result.ancestorTitles ?? []), result.title].join(" > "),
        file: rel,
        line: result.location?.line,
        status: result.status,
        message: cleanMessage(raw, copy),
        timedOut: result.status === "failed" && isTimeout(raw),
        seconds: Math.round((result.duration ?? 0) / 1000),
      };
    });
    tests.push(...own);
    if (file.status === "failed" && !own.some((test) => test.status === "failed")) {
      fileErrors.push({ file: rel, message: cleanMessage(file.message || "failed outside its tests", copy) });
    }
  }
  return { tests, fileErrors };
}
