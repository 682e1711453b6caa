// --live's settings: the environment first, then a .env file; without a key, one message that says how to set it.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, test } from "vitest";
import { liveEnv } from "./live.ts";

const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-live-test-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const envFile = (content: string) => {
  const file = path.join(folder, `${Math.random().toString(36).slice(2)}.env`);
  writeFileSync(file, content);
  return file;
};

test("a .env file fills in the live settings the environment lacks, and nothing else", () => {
  const file = envFile(
    '# comment\nANTHROPIC_API_KEY=sk-from-file\nANTHROPIC_MODEL="claude-haiku-5-5"\nOTHER=ignored\n',
  );
  const env = liveEnv(file, { PATH: "/bin" });
  expect(env).toEqual({ PATH: "/bin", ANTHROPIC_API_KEY: "sk-from-file", ANTHROPIC_MODEL: "claude-haiku-5-5" });
});

test("the environment wins over the file, even a variable set empty", () => {
  const file = envFile(
    "ANTHROPIC_API_KEY=sk-from-file\nANTHROPIC_MODEL=from-file\nANTHROPIC_BASE_URL=http://file.example\n",
  );
  expect(liveEnv(file, { ANTHROPIC_API_KEY: "sk-from-env", ANTHROPIC_MODEL: "" })).toEqual({
    ANTHROPIC_API_KEY: "sk-from-env",
    ANTHROPIC_MODEL: "",
    ANTHROPIC_BASE_URL: "http://file.example",
  });
  expect(() => liveEnv(file, { ANTHROPIC_API_KEY: "" })).toThrow(
    "ANTHROPIC_API_KEY is set but empty in your environment, which wins over .env.",
  );
});

test("no key anywhere is an error that says how to set one, names the file, and shows no value", () => {
  const file = envFile("ANTHROPIC_API_KEY=\nANTHROPIC_MODEL=secret-model-name\n");
  for (const where of [file, path.join(folder, "missing.env")]) {
    expect(() => liveEnv(where, {})).toThrow(
      "--live needs an API key, and ANTHROPIC_API_KEY is not set. Nothing was sent.",
    );
    expect(() => liveEnv(where, {})).toThrow(`cp .env.example .env and put the key in ${where}`);
    expect(() => liveEnv(where, {})).not.toThrow("secret-model-name");
  }
});

test("the demo's --live without a key exits 2 with that message, and sends nothing", async () => {
  let requests = 0;
  const api = createServer((_, response) => void (requests++, response.end()));
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const main = fileURLToPath(new URL("./main.ts", import.meta.url));
  // Set empty, the variable wins over any .env in the repository, so this never reads a real key.
  const env = {
    ...process.env,
    ANTHROPIC_API_KEY: "",
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
  };
  const result = await new Promise<{ code: unknown; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      ["--import", import.meta.resolve("tsx"), main, "--live", "hi"],
      { env },
      (error, stdout, stderr) => resolve({ code: error?.code, stdout, stderr }),
    ),
  );
  api.close();
  expect([result.code, result.stdout, requests]).toEqual([2, "", 0]);
  expect(result.stderr).toMatch(
    /^--live needs an API key, and ANTHROPIC_API_KEY is set but empty in your environment, which wins over \.env\. Nothing was sent\./,
  );
});
