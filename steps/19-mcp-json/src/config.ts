// MCP server configuration read the way Claude Code reads a project's .mcp.json, every field checked. A bad file or
// entry costs only itself, in one line that names it.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export type StdioEntry = {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
};
export type HttpEntry = { type: "http"; url: string; headers: Record<string, string> };
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

//#region check-entry
/** A reason to skip one server, and the field it lies in. */
class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function text(raw: Json, field: string): string {
  if (typeof raw[field] !== "string")
    throw new FieldError(field, raw[field] === undefined ? "missing" : "expected a string");
  return raw[field];
}

function strings(raw: Json, field: string): string[] {
  const value = raw[field] ?? [];
  if (!Array.isArray(value)) throw new FieldError(field, "expected an array of strings");
  return value.map((item, i) => {
    if (typeof item !== "string") throw new FieldError(`${field}[${i}]`, "expected a string");
    return item;
  });
}

function stringMap(raw: Json, field: string): Record<string, string> {
  const value = raw[field] ?? {};
  if (!isObject(value)) throw new FieldError(field, "expected an object of strings");
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (typeof item !== "string") throw new FieldError(`${field}.${key}`, "expected a string");
      return [key, item];
    }),
  );
}

/** One server entry, checked; throws a FieldError naming what is wrong. */
function checkEntry(raw: unknown, project: string): StdioEntry | HttpEntry {
  if (!isObject(raw)) throw new FieldError("entry", "expected an object");
  const type = raw.type ?? "stdio";
  if (type === "http") return { type, url: checkUrl(text(raw, "url")), headers: stringMap(raw, "headers") };
  if (type === "sse")
    throw new FieldError("type", '"sse" is the older HTTP+SSE transport, not supported here; use "http"');
  if (type !== "stdio")
    throw new FieldError("type", `unknown type ${JSON.stringify(type)} (expected "stdio" or "http")`);
  if (raw.command === undefined && raw.url !== undefined)
    throw new FieldError("command", 'missing (a remote server needs "type": "http")');
  const command = text(raw, "command");
  if (command === "") throw new FieldError("command", "empty");
  const entry: StdioEntry = { type, command, args: strings(raw, "args"), env: stringMap(raw, "env") };
  if (raw.cwd === undefined) return entry;
  if (typeof raw.cwd !== "string") throw new FieldError("cwd", "expected a string");
  return { ...entry, cwd: path.resolve(project, raw.cwd) }; // a relative cwd starts at the project folder
}

/** `url`, if it is http or https. */
function checkUrl(url: string): string {
  if (!/^https?:$/.test(URL.canParse(url) ? new URL(url).protocol : ""))
    throw new FieldError("url", `not an http or https URL: ${url}`);
  return url;
}
//#endregion

//#region load
function checked(name: string, raw: unknown, found: Found, folders: Folders, problems: string[]) {
  try {
    return { name, file: found.file, entry: checkEntry(raw, folders.project) };
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    problems.push(`${found.file}: server "${name}": ${error.field}: ${error.message}; skipped`);
    return null;
  }
}

/** Every server of the project's .mcp.json, in the file's order. */
export function loadConfig(folders: Folders): HostConfig {
  const problems: string[] = [];
  const found = readProject(folders, problems);
  if (found === undefined) return { servers: [], problems };
  const servers = Object.entries(found.servers)
    .map(([name, raw]) => checked(name, raw, found, folders, problems))
    .filter((server) => server !== null);
  return { servers, problems };
}
//#endregion
