// --live: the settings the real API needs, from the environment or from a .env file at the repository's root, read
// with Node's own parser. A variable set in the environment wins over the file, even set empty, as with Node's own
// --env-file. Names are printed, values never.
import { existsSync, readFileSync } from "node:fs";
import { parseEnv } from "node:util";

export const LIVE_SETTINGS = ["ANTHROPIC_API_KEY", "ANTHROPIC_MODEL", "ANTHROPIC_BASE_URL"] as const;

/** The environment to run the agent with: `env`, plus each live setting it lacks that `envFile` has. */
export function liveEnv(envFile: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const fromFile = existsSync(envFile) ? parseEnv(readFileSync(envFile, "utf8")) : {};
  const merged = { ...env };
  for (const name of LIVE_SETTINGS) if (merged[name] === undefined && fromFile[name]) merged[name] = fromFile[name];
  if (!merged.ANTHROPIC_API_KEY) {
    const why =
      merged.ANTHROPIC_API_KEY === "" ? "is set but empty in your environment, which wins over .env" : "is not set";
    throw new Error(
      [
        `--live needs an API key, and ANTHROPIC_API_KEY ${why}. Nothing was sent. Either:`,
        "  export ANTHROPIC_API_KEY=<your key>        (this shell only; keys are made at console.anthropic.com), or",
        `  cp .env.example .env and put the key in ${envFile} (git ignores it)`,
        "Optional: ANTHROPIC_MODEL (default claude-sonnet-5-5) and ANTHROPIC_BASE_URL, the same two ways.",
      ].join("\n"),
    );
  }
  return merged;
}
