// `pnpm conformance`: the pinned official suite at 2025-11-25 and 2026-07-28 against everything.ts over the SDK's HTTP
// serving, the hand-written bridge in front of `everything.ts --stdio`, and client.ts; and its authorization-server
// checks against the "OAuth authorization server" role. A run passes against expected-failures/<run>.yaml (no file: no
// failure expected). Every process it starts is stopped on every way out.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { bundleForNode } from "../shared/bundle.mjs";
import { authorizationRun } from "./authorization.ts";
import { start, startServer, stopAll } from "./processes.ts";
import { parseReport, problems, requiredScenarios, type Report } from "./report.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUITE_DIR = path.dirname(
  createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json"),
);
const SUITE = path.join(SUITE_DIR, "dist", "index.js");
const TSX = import.meta.resolve("tsx");
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;

const { values: options } = parseArgs({
  options: {
    only: { type: "string", multiple: true },
    expected: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});
const expectedDir = path.resolve(options.expected ?? path.join(HERE, "expected-failures"));
const work = mkdtempSync(path.join(tmpdir(), "learn-mcp-conformance-"));

//#region bundle
// The bridge starts a server per session and the suite a client per scenario: under tsx each start costs ~1.2 s of CPU,
// bundled as plain JavaScript ~0.4 s. The bundle names the role's module, found through the role table now.
async function bundle(): Promise<{ everything: string; client: string }> {
  const entry = path.join(work, "everything-entry.mjs");
  const factory = roleProgram("SDK server over HTTP, its McpServer factory");
  const serve = path.join(HERE, "serve.ts");
  writeFileSync(
    entry,
    `import { createMcpServer } from ${JSON.stringify(factory)};\nimport { serveEverything } ` +
      `from ${JSON.stringify(serve)};\nserveEverything(createMcpServer, process.argv.slice(2));\n`,
  );
  const outputs = { everything: path.join(work, "everything.mjs"), client: path.join(work, "client.mjs") };
  await Promise.all([
    bundleForNode(entry, outputs.everything),
    bundleForNode(path.join(HERE, "client.ts"), outputs.client),
  ]);
  return outputs;
}
//#endregion

//#region runs
interface Run {
  name: string;
  args: string[];
  /** Whose checks a revision requires of it; none for the authorization server, which no revision requires. */
  scored?: { side: "server" | "client"; revision: string };
  /** Hears the suite's output so far, each time it grows. */
  watch?: (output: string) => void;
}
interface Result {
  name: string;
  report: Report | undefined;
  problems: string[];
  output: string;
  seconds: number;
}

/** Runs the suite once; resolves with what it printed, parsed, and why that does not pass. */
function runSuite({ name, args, scored, watch }: Run): Promise<Result> {
  const started = Date.now();
  const requirements = scored && readFileSync(path.join(SUITE_DIR, "requirements", `${scored.revision}.yaml`), "utf8");
  const expected = path.join(expectedDir, `${name}.yaml`);
  const suiteArgs = [
    ...args,
    ...(existsSync(expected) ? ["--expected-failures", expected] : []),
    "-o",
    path.join(work, "results", name),
  ];
  // The suite needs Node 22 for fs.globSync, which only its tier-check command calls: node20-fs.mjs supplies it on Node
  // 20.
  const child = start(
    process.execPath,
    ["--import", pathToFileURL(path.join(HERE, "node20-fs.mjs")).href, SUITE, ...suiteArgs],
    work,
  );
  let output = "";
  for (const stream of [child.stdout!, child.stderr!])
    stream.setEncoding("utf8").on("data", (text: string) => {
      output += text;
      watch?.(output);
    });
  return new Promise((resolve) => {
    child.on("close", (status) => {
      writeFileSync(path.join(work, `${name}.log`), output);
      const report = parseReport(output);
      // Without a revision's list, every scenario that ran must have run checks.
      const required = scored
        ? requiredScenarios(requirements!, scored.side)
        : new Set(report?.scenarios.map((scenario) => scenario.name));
      resolve({
        name,
        report,
        problems: problems(status, report, required),
        output,
        seconds: (Date.now() - started) / 1000,
      });
    });
  });
}

/** "scenario:check: message" for each failed check of a run, from the checks.json files the suite saved. */
function failedChecks(name: string): string[] {
  const dir = path.join(work, "results", name);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith("checks.json"));
  return files.flatMap((file) => {
    const scenario = path.dirname(file).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
    const checks = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as {
      id: string;
      status: string;
      errorMessage?: string;
    }[];
    return checks
      .filter((check) => check.status === "FAILURE")
      .map((check) => `${scenario}:${check.id}: ${check.errorMessage ?? ""}`.slice(0, 240));
  });
}

/**
 * Runs `runs` two at a time, in order, and resolves with their results in the same order. All at once would take no
 * less time on two cores, and each suite's scenarios would wait longer for the CPU, up to their timeouts.
 */
async function inTurns(runs: Run[], run: (run: Run) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = [];
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < runs.length; index = next++) results[index] = await run(runs[index]!);
  };
  await Promise.all([worker(), worker()]);
  return results;
}

/** The runs, longest first: the client runs (every scenario brings its own servers, authorization servers among
 * them), then the bridge's (a server process per session), then the SDK's, then the authorization server's. */
function plan(urls: { sdk: string; bridge: string }, client: string, authorization: Run | undefined): Run[] {
  const order = ["client", "bridge", "sdk-http", "authorization"];
  const server = (revision: string) => ({ side: "server", revision }) as const;
  return REVISIONS.flatMap((revision): Run[] => [
    {
      name: `sdk-http-${revision}`,
      scored: server(revision),
      args: ["server", "--url", urls.sdk, "--requirements", revision],
    },
    {
      name: `bridge-${revision}`,
      scored: server(revision),
      args: ["server", "--url", urls.bridge, "--requirements", revision],
    },
    // The suite starts every client scenario at once; on a loaded machine a client can wait long for the CPU, and its
    // 30 s default would read that as a hang. A client that does hang still fails, 4 minutes later.
    {
      name: `client-${revision}`,
      scored: { side: "client", revision },
      args: ["client", "--command", `${process.execPath} ${client}`, "--timeout", "240000", "--requirements", revision],
    },
  ])
    .concat(authorization ?? [])
    .filter((run) => options.only === undefined || options.only.includes(run.name))
    .sort(
      (a, b) => order.findIndex((kind) => a.name.startsWith(kind)) - order.findIndex((kind) => b.name.startsWith(kind)),
    );
}
//#endregion

//#region main
async function main(): Promise<number> {
  const bundles = await bundle();
  const wanted = (prefix: string) => options.only === undefined || options.only.some((name) => name.startsWith(prefix));
  const [sdk, bridge, authorization] = await Promise.all([
    wanted("sdk-http")
      ? startServer("everything.ts over HTTP", process.execPath, [bundles.everything, "--port", "0"], work)
      : "",
    wanted("bridge")
      ? startServer(
          "the bridge",
          process.execPath,
          [
            "--import",
            TSX,
            roleProgram("Streamable HTTP bridge"),
            "--port",
            "0",
            "--",
            process.execPath,
            bundles.everything,
            "--stdio",
          ],
          work,
        )
      : "",
    wanted("authorization")
      ? authorizationRun(TSX, work).then((run): Run => ({ name: "authorization", ...run }))
      : undefined,
  ]);
  const results = await inTurns(plan({ sdk, bridge }, bundles.client, authorization), runSuite);
  let failed = 0;
  for (const { name, report, problems: why, output, seconds } of results) {
    const totals = report
      ? `${report.passed} checks passed, ${report.failed} failed, ` +
        `${report.warnings} warnings in ${report.scenarios.length} scenarios`
      : "no totals";
    console.log(`conformance ${name}: ${totals} (${seconds.toFixed(1)} s): ${why.length === 0 ? "PASSED" : "FAILED"}`);
    if (why.length === 0) continue;
    failed++;
    why.forEach((line) => console.log(`  ${line}`));
    const checks = failedChecks(name);
    checks.slice(0, 20).forEach((line) => console.log(`  failed check ${line}`));
    if (checks.length > 20) console.log(`  … and ${checks.length - 20} more failed checks`);
    console.log(output.slice(Math.max(0, output.search(/=== (SUITE )?SUMMARY ===/))).replace(/^/gm, "  | "));
  }
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

let stopping = false;
async function finish(status: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await stopAll();
  if (options.keep) console.log(`conformance: the bundles, the suite's results and its output are kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  process.exit(status);
}
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
] as const)
  process.on(signal, () => void finish(status));
const fail = (error: Error) => {
  console.error(`conformance: ${error.stack ?? error.message}`);
  void finish(1);
};
process.on("uncaughtException", fail);
main().then(finish, fail);
//#endregion
