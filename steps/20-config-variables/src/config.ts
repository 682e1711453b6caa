// MCP server configuration read the way Claude Code reads a project's .mcp.json, each ${VAR} taken from the
// environment. A bad file or entry costs only itself, in one line that names it.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

// `shown`: the command line or URL as it may be printed, each value from the environment left as ${NAME}.
export type StdioEntry = {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  shown?: string;
};
export type HttpEntry = { type: "http"; url: string; headers: Record<string, string>; shown?: string };
export interface ServerConfig {
  name: string;
  file: string;
  entry: StdioEntry | HttpEntry;
}
export interface HostConfig {
  servers: ServerConfig[];
  problems: string[];
}
/** The folder to read: the project, whose .mcp.json lists its servers. */
export interface Folders {
  project: string;
}

type Json = Record<string, unknown>;
/** Whether a JSON value is an object: not null, not an array. */
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === "object" && !Array.isArray(value);

//#region read-file
type Found = { file: string; servers: Json };

function readJson(file: string, problems: string[]): unknown {
  if (!existsSync(file)) return undefined; // a project without the file has no servers
  const stats = statSync(file); // before it is opened: reading a named pipe would wait for a writer forever
  const kind = stats.isDirectory() ? "a folder" : "not a regular file (a named pipe, a socket or a device)";
  if (!stats.isFile()) return void problems.push(`${file}: is ${kind}, not read; its servers are skipped`);
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    problems.push(`${file}: not valid JSON (${(error as Error).message}); its servers are skipped`);
    return undefined;
  }
}

/** The `mcpServers` object inside `holder`, if it has one; one that is not an object is a problem. */
function serverMap(holder: unknown, file: string, problems: string[]): Json | undefined {
  if (!isObject(holder) || !Object.hasOwn(holder, "mcpServers")) return undefined;
  if (isObject(holder.mcpServers)) return holder.mcpServers;
  problems.push(`${file}: mcpServers: expected an object of servers; skipped`);
  return undefined;
}

/** The servers of the project's .mcp.json, if it has any to read. */
function readProject({ project }: Folders, problems: string[]): Found | undefined {
  const file = path.join(project, ".mcp.json");
  const json = readJson(file, problems);
  // .mcp.json may also hold the bare map of servers, without the mcpServers wrapper.
  if (isObject(json) && !Object.hasOwn(json, "mcpServers")) return { file, servers: json };
  if (json !== undefined && !isObject(json))
    return void problems.push(`${file}: expected an object; its servers are skipped`);
  const servers = serverMap(json, file, problems);
  return servers && { file, servers };
}
//#endregion

//#region expand
/** A reason to skip one server, and the field it lies in. */
class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

// ${NAME} and ${NAME:-default}; as in a POSIX shell, the default also replaces a variable set to "".
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

// Own properties only: every object has a `constructor` and a `toString`, and neither is a variable.
const valueIn = (env: NodeJS.ProcessEnv, name: string) =>
  Object.hasOwn(env, name) && env[name] !== "" ? env[name] : undefined;
const OPENS_VARIABLE = /\$\{/; // in a default: ${B:-${C}} is not read as nested

function expand(text: string, field: string, env: NodeJS.ProcessEnv): string {
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    if (fallback !== undefined && OPENS_VARIABLE.test(fallback))
      throw new FieldError(field, `the default of \${${name}} holds a \${...}: defaults are plain text`);
    const value = valueIn(env, name);
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    throw new FieldError(field, `\${${name}} is not set and has no default`);
  });
}

/** `text` as it may be printed: each value the environment gives left as ${NAME}, each default written out. */
const shown = (text: string, env: NodeJS.ProcessEnv) =>
  text.replace(VARIABLE, (_, name: string, fallback = "") =>
    valueIn(env, name) === undefined ? fallback : `\${${name}}`,
  );
//#endregion

//#region check-entry
function text(raw: Json, field: string, env: NodeJS.ProcessEnv): string {
  if (typeof raw[field] !== "string")
    throw new FieldError(field, raw[field] === undefined ? "missing" : "expected a string");
  return expand(raw[field], field, env);
}

function strings(raw: Json, field: string, env: NodeJS.ProcessEnv): string[] {
  const value = raw[field] ?? [];
  if (!Array.isArray(value)) throw new FieldError(field, "expected an array of strings");
  return value.map((item, i) => {
    if (typeof item !== "string") throw new FieldError(`${field}[${i}]`, "expected a string");
    return expand(item, `${field}[${i}]`, env);
  });
}

function stringMap(raw: Json, field: string, env: NodeJS.ProcessEnv): Record<string, string> {
  const value = raw[field] ?? {};
  if (!isObject(value)) throw new FieldError(field, "expected an object of strings");
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (typeof item !== "string") throw new FieldError(`${field}.${key}`, "expected a string");
      return [key, expand(item, `${field}.${key}`, env)];
    }),
  );
}

/** One server entry, checked and its ${VAR}s expanded; throws a FieldError naming what is wrong. */
function checkEntry(raw: unknown, project: string, env: NodeJS.ProcessEnv): StdioEntry | HttpEntry {
  if (!isObject(raw)) throw new FieldError("entry", "expected an object");
  const type = raw.type ?? "stdio";
  // raw.url is a string once text() has checked it; a refusal quotes it as shown.
  if (type === "http")
    return {
      type,
      url: checkUrl(text(raw, "url", env), shown(raw.url as string, env)),
      headers: stringMap(raw, "headers", env),
      shown: shown(raw.url as string, env),
    };
  if (type === "sse")
    throw new FieldError("type", '"sse" is the older HTTP+SSE transport, not supported here; use "http"');
  if (type !== "stdio")
    throw new FieldError("type", `unknown type ${JSON.stringify(type)} (expected "stdio" or "http")`);
  if (raw.command === undefined && raw.url !== undefined)
    throw new FieldError("command", 'missing (a remote server needs "type": "http")');
  const command = text(raw, "command", env);
  if (command === "") throw new FieldError("command", "empty");
  const args = strings(raw, "args", env);
  // args are checked
  const line = [raw.command as string, ...((raw.args ?? []) as string[])].map((part) => shown(part, env)).join(" ");
  const entry: StdioEntry = { type, command, args, env: stringMap(raw, "env", env), shown: line };
  if (raw.cwd === undefined) return entry;
  if (typeof raw.cwd !== "string") throw new FieldError("cwd", "expected a string");
  return { ...entry, cwd: path.resolve(project, raw.cwd) }; // a relative cwd starts at the project folder
}

/** `url`, if it is http or https; a refusal quotes it as `shownUrl`, without the values from the environment. */
function checkUrl(url: string, shownUrl: string): string {
  if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : ""))
    throw new FieldError("url", `not an http or https URL: ${shownUrl}`);
  return url;
}
//#endregion

//#region load
function checked(
  name: string,
  raw: unknown,
  found: Found,
  folders: Folders,
  env: NodeJS.ProcessEnv,
  problems: string[],
) {
  try {
    return { name, file: found.file, entry: checkEntry(raw, folders.project, env) };
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    problems.push(`${found.file}: server "${name}": ${error.field}: ${error.message}; skipped`);
    return null;
  }
}

/** Every server of the project's .mcp.json, in the file's order; `env` is where ${VAR} takes its values. */
export function loadConfig(folders: Folders, env: NodeJS.ProcessEnv = process.env): HostConfig {
  const problems: string[] = [];
  const found = readProject(folders, problems);
  if (found === undefined) return { servers: [], problems };
  const servers = Object.entries(found.servers)
    .map(([name, raw]) => checked(name, raw, found, folders, env, problems))
    .filter((server) => server !== null);
  return { servers, problems };
}
//#endregion
