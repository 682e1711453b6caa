// Reading what one run of the conformance suite printed: each scenario's checks and the totals; and which scenarios a
// revision requires. A crashed client or server shows as a tick with 0 checks, so the verdict counts checks too.

export interface Scenario {
  name: string;
  ok: boolean;
  passed: number;
  failed: number;
}

export interface Report {
  scenarios: Scenario[];
  passed: number;
  failed: number;
  warnings: number;
}

const SCENARIO = /^([✓✗]) (\S+): (\d+) passed, (\d+) failed/u;
const TOTAL = /^Total: (\d+) passed, (\d+) failed(?:, (\d+) warnings)?/;

/** The summary at the end of the suite's output, or undefined when it printed none (it crashed, or was stopped). */
export function parseReport(output: string): Report | undefined {
  const lines = output.split("\n").map((line) => line.trimEnd());
  const start = lines.findIndex((line) => /^=== (SUITE )?SUMMARY ===$/.test(line));
  if (start === -1) return undefined;
  const summary = lines.slice(start);
  const total = summary.map((line) => TOTAL.exec(line)).find((match) => match !== null);
  if (!total) return undefined;
  const scenarios = summary.flatMap((line) => {
    const match = SCENARIO.exec(line);
    if (!match) return [];
    const [, mark, name, passed, failed] = match;
    return [{ name: name!, ok: mark === "✓", passed: Number(passed), failed: Number(failed) }];
  });
  return { scenarios, passed: Number(total[1]), failed: Number(total[2]), warnings: Number(total[3] ?? 0) };
}

/**
 * The scenarios a revision requires of one side ("server" or "client"), from the suite's requirements/<revision>.yaml:
 * the names listed under that top-level key. Its not_scored entries are run too, but cannot fail a run.
 */
export function requiredScenarios(requirementsYaml: string, side: "server" | "client"): Set<string> {
  const names = new Set<string>();
  let inSide = false;
  for (const line of requirementsYaml.split("\n")) {
    if (/^\S/.test(line)) inSide = line.trim() === `${side}:`;
    else if (inSide && /^ {2}- /.test(line)) names.add(line.slice(4).trim());
  }
  return names;
}

/**
 * Why a finished run does not pass, or an empty list: the suite's own exit status, and required scenarios with no
 * checks.
 */
export function problems(status: number | null, report: Report | undefined, required: Set<string>): string[] {
  if (!report) return [`the suite printed no summary (exit status ${status})`];
  const empty = report.scenarios.filter(
    (scenario) => required.has(scenario.name) && scenario.passed + scenario.failed === 0,
  );
  return [
    ...(status === 0
      ? []
      : [
          `the suite exited with status ${status}: a failure not in the expected-failures file, or a stale entry there`,
        ]),
    ...empty.map(
      (scenario) => `${scenario.name} ran no check: the client or server under test crashed or never answered`,
    ),
  ];
}
