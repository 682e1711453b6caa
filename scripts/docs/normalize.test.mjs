// Each normalisation rule with an example, and the ordinary text every rule must leave alone.
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../steps/runner/shared/repo.mjs";
import { normalize, normalizeWire, rules } from "./normalize.mjs";

describe("normalize", () => {
  it.each([
    ["started at 2025-11-29T23:36:01.123Z", "started at <time>"],
    ["at 2025-11-29T23:36:01+01:00.", "at <time>."],
    ["took 12 ms", "took <n> ms"],
    ["took 12.3ms", "took <n> ms"],
    ["waited 1.2 s then 3s", "waited <n> s then <n> s"],
    ["server pid 1234 started", "server pid <pid> started"],
    ["pid=99", "pid=<pid>"],
    ["wrote /tmp/learn-mcp-abc123/notes.txt", "wrote <tmp>/notes.txt"],
    ["made /tmp/learn-mcp-abc123", "made <tmp>"],
    ["'/tmp/learn-mcp-abc123/sub/notes.txt'", "'<tmp>/sub/notes.txt'"],
    [`${REPO_ROOT}/steps/01-a-step/src/main.ts:12`, "./steps/01-a-step/src/main.ts:12"],
    [`cwd ${REPO_ROOT}`, "cwd ."],
    ["POST http://127.0.0.1:45701/v1/messages", "POST http://127.0.0.1:<port>/v1/messages"],
    ["listening on http://localhost:61234/mcp", "listening on http://localhost:<port>/mcp"],
  ])("rewrites %j", (input, expected) => {
    expect(normalize(input)).toBe(expected);
  });

  it.each([
    "listening on port 3000",
    "ws://127.0.0.1:9000",
    "the answer is 42",
    "2 steps, 3 sums",
    "version 1.2.3",
    "/work/tmp/notes.txt",
    "2025-11-29 is a date, not a time",
  ])("leaves %j alone", (input) => {
    expect(normalize(input)).toBe(input);
  });

  // A root outside any temporary folder, so the check holds wherever CI clones the repository.
  it("leaves a sibling of the repository alone", () => {
    expect(normalize("/srv/learn-mcp-backup/x", "/srv/learn-mcp")).toBe("/srv/learn-mcp-backup/x");
    expect(normalize("/srv/learn-mcp/x", "/srv/learn-mcp")).toBe("./x");
  });

  it("uses the os temporary directory as well as /tmp", () => {
    expect(normalize(path.join(os.tmpdir(), "run-x1y2", "log.txt"))).toBe("<tmp>/log.txt");
  });

  it("treats a repository under /tmp as the repository, not as a temporary path", () => {
    expect(normalize("/tmp/checkout/steps/run.mjs", "/tmp/checkout")).toBe("./steps/run.mjs");
  });

  it("exports its rules with a name, a regexp and a replacement", () => {
    expect(rules.map((rule) => rule.name)).toEqual([
      "repository root",
      "temporary path",
      "ISO-8601 timestamp",
      "duration",
      "process id",
      "free loopback port",
    ]);
    for (const rule of rules) expect(rule.regexp).toBeInstanceOf(RegExp);
  });
});

describe("normalizeWire", () => {
  const uuid = "3735173e-5195-4c60-8095-959c4e573290";
  const random = "MXSCHW3suCRTHHI8x9CbT_B7dln5raDYcmmtEBQVhLs";
  it.each([
    [`200 OK  mcp-session-id: ${uuid}`, "200 OK  mcp-session-id: <session id>"],
    [`POST /messages?sessionId=${uuid}`, "POST /messages?sessionId=<session id>"],
    [`/auth?client_id=${random}&state=${uuid}`, "/auth?client_id=<random>&state=<random>"],
    [`location: /interaction/${random}`, "location: /interaction/<random>"],
    [`{"kid":"${random}"}`, '{"kid":"<random>"}'],
    ["resource=http%3A%2F%2F127.0.0.1%3A36523%2Fmcp", "resource=http%3A%2F%2F127.0.0.1%3A<port>%2Fmcp"],
    ['{"client_id_issued_at":1764632400,"a":1}', '{"client_id_issued_at":<time>,"a":1}'],
  ])("rewrites %j", (input, expected) => {
    expect(normalizeWire(input)).toBe(expected);
  });

  it.each([
    `a uuid elsewhere: ${uuid}`,
    "/.well-known/oauth-protected-resource/mcp",
    "http%3A%2F%2F127.0.0.1%3A3001%2Fmcp",
    '{"expires_in":5,"total":1764632400}',
  ])("leaves %j alone", (input) => {
    expect(normalizeWire(input)).toBe(input);
  });

  it("applies the ordinary rules first, and only gen wire blocks use it", () => {
    expect(normalizeWire("http://127.0.0.1:45701/mcp took 12 ms")).toBe("http://127.0.0.1:<port>/mcp took <n> ms");
    expect(normalize(`mcp-session-id: ${uuid}`)).toBe(`mcp-session-id: ${uuid}`);
  });
});
