// Turns what tsc and vitest report into what a learner reads: errors as file:line and a message, tests by name with
// their state, and failure messages without the tooling's stack frames or the check's temporary paths.

// tsc --pretty false: "src/a.ts(12,5): error TS2322: message", continued on indented lines.
const TSC_LINE = /^(.+?)\((\d+),(\d+)\): error TS(\d+): (.*)$/;
const TSC_BARE = /^error TS(\d+): (.*)$/;
// Lines that are the tooling talking, not the learner's program: stack frames, Node's rethrow banner, a caret line.
const NOISE = [
  /^\s+at\s/,
  /^node:internal\//,
  /^\s*triggerUncaughtException\(/,
  /^\s*\^+\s*$/,
  /^Error: STACK_TRACE_ERROR$/,
];

/** Every error tsc printed, as { file, line, code, message }. */
export function typeErrorsOf(output) {
  const errors = [];
  for (const line of output.split("\n")) {
    const located = TSC_LINE.exec(line);
    const bare = TSC_BARE.exec(line);
    if (located)
      errors.push({ file: located[1], line: Number(located[2]), code: Number(located[4]), message: located[5] });
    else if (bare) errors.push({ file: "", line: 0, code: Number(bare[1]), message: bare[2] });
    else if (line.startsWith("  ") && errors.length > 0) errors.at(-1).message += `\n${line.trim()}`;
  }
  return errors;
}

/** A message with the check's copy named as the learner's folder (paths relative to it) and the noise left out. */
export function cleanMessage(text, copy) {
  const local = text.split(`file://${copy}/`).join("").split(`${copy}/`).join("").split(copy).join(".");
  const lines = local.split("\n").filter((line) => !NOISE.some((noise) => noise.test(line)));
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The first `count` lines of a message, to quote it without its diff or its output in full. */
export const firstLines = (message, count) => {
  const lines = message.split("\n");
  return lines.length <= count ? message : `${lines.slice(0, count).join("\n")}\n…`;
};

const isTimeout = (message) => /(Test|Hook) timed out in \d+ms/.test(message);
const relativeTo = (copy, file) => (file.startsWith(`${copy}/`) ? file.slice(copy.length + 1) : file);

/**
 * The check reporter's report as { tests, fileErrors, unhandled }: each test { name, file, line, status, message,
 * timedOut, seconds }, named "file > describe > test" as check:exercises records it. A test skipped on purpose is
 * left out; one skipped because a hook above it failed is "blocked". A file's own errors (a failing hook, a module
 * that cannot load) are told only where no test of the file failed, which would already say as much.
 */
export function checkResults(report, copy) {
  const tests = [];
  const fileErrors = [];
  for (const module of report.modules ?? []) {
    const rel = relativeTo(copy, module.file);
    const own = module.tests
      .filter((test) => test.state !== "skipped")
      .map((test) => ({
        name: [rel, ...test.names].join(" > "),
        file: rel,
        line: test.line,
        status: test.state,
        message: cleanMessage(test.message, copy),
        timedOut: test.state === "failed" && isTimeout(test.message),
        seconds: Math.round(test.duration / 1000),
      }));
    tests.push(...own);
    if (module.errors.length > 0 && !own.some((test) => test.status === "failed")) {
      const blocked = own.filter((test) => test.status === "blocked").length;
      fileErrors.push({
        file: rel,
        message: cleanMessage(module.errors[0], copy),
        ran: own.some((test) => test.status === "passed"),
        blocked,
      });
    }
  }
  return { tests, fileErrors, unhandled: (report.unhandled ?? []).map((error) => cleanMessage(error, copy)) };
}
