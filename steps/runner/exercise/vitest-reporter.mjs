// The reporter a check runs vitest with: every test with its state and first error, and the errors of suites and
// files. vitest's json reporter drops a describe's failing beforeAll and a timeout's message; a learner needs both.
import { writeFileSync } from "node:fs";

/** The names from the file down to `task`: its describe blocks, then its own. */
function namesOf(task) {
  const names = [];
  for (let at = task; at && at.type !== "module"; at = at.parent) names.unshift(at.name);
  return names;
}

const errorText = (error) => {
  const head =
    error.name && !String(error.message).startsWith(error.name)
      ? `${error.name}: ${error.message}`
      : String(error.message);
  return error.diff ? `${head}\n\n${error.diff}` : head;
};

/** The first error of a suite above `test`, or of its file: why a test that never ran was skipped. */
function blockedBy(test) {
  for (let at = test.parent; at; at = at.parent) {
    const [error] = at.errors?.() ?? [];
    if (error) return errorText(error);
    if (at.type === "module") break;
  }
  return undefined;
}

function testOf(test) {
  const result = test.result();
  const blocked = result.state === "skipped" ? blockedBy(test) : undefined;
  return {
    names: namesOf(test),
    state: blocked ? "blocked" : result.state,
    message: blocked ?? (result.errors?.[0] ? errorText(result.errors[0]) : ""),
    line: test.location?.line,
    duration: test.diagnostic()?.duration ?? 0,
  };
}

export default class CheckReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const modules = testModules.map((module) => ({
      file: module.moduleId,
      errors: [module, ...module.children.allSuites()].flatMap((suite) => suite.errors().map(errorText)),
      tests: [...module.children.allTests()].map(testOf),
    }));
    const report = { modules, unhandled: unhandledErrors.map(errorText) };
    writeFileSync(process.env.LEARN_MCP_CHECK_REPORT, JSON.stringify(report));
  }
}
