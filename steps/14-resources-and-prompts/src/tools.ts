// The seven tools, registered on an McpServer with zod input schemas.
// A handler that throws becomes an `isError` result in the SDK, so refusals are plain thrown Errors.
import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { beepWav, gradientPng } from "./media.ts";
import { SIZE_LIMIT, type Workspace } from "./workspace.ts";

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

//#region time
// Intl knows every IANA zone; "longOffset" gives the offset as "GMT+09:00" (some ICU versions write plain "GMT" for zero).
function isoTimeIn(timeZone: string, now: Date): string {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone, hourCycle: "h23", timeZoneName: "longOffset",
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
  });
  const part = Object.fromEntries(format.formatToParts(now).map(({ type, value }) => [type, value]));
  const offset = part.timeZoneName.slice("GMT".length) || "+00:00";
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${offset}`;
}

function currentTime(timeZone: string): string {
  try {
    return `${isoTimeIn(timeZone, new Date())} (${timeZone})`;
  } catch {
    throw new Error(`Unknown time zone ${JSON.stringify(timeZone)}: use an IANA name such as "Europe/Paris".`);
  }
}
//#endregion

//#region simple-tools
function registerSimpleTools(server: McpServer): void {
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => text(String(a + b)),
  );
  server.registerTool(
    "echo",
    { description: "Returns the text it is given.", inputSchema: z.object({ text: z.string() }) },
    (args) => text(args.text),
  );
  server.registerTool(
    "get_current_time",
    {
      description: "Returns the current time as ISO 8601 with the zone's offset. Defaults to UTC.",
      inputSchema: z.object({ timeZone: z.string().optional().describe('An IANA time zone, e.g. "Asia/Tokyo".') }),
    },
    ({ timeZone = "UTC" }) => text(currentTime(timeZone)),
  );
}
//#endregion

//#region file-tools
const PATH_RULES = `Paths are relative to the workspace folder; paths outside it and symbolic links are refused. Files over ${SIZE_LIMIT} bytes (1 MiB) are refused.`;
const workspacePath = z.string().describe("A path inside the workspace folder.");

function registerFileTools(server: McpServer, workspace: Workspace): void {
  server.registerTool(
    "read_file",
    { description: `Reads a UTF-8 text file. ${PATH_RULES}`, inputSchema: z.object({ path: workspacePath }) },
    ({ path }) => text(decodeUtf8(workspace.readFile(path), path)),
  );
  server.registerTool(
    "list_files",
    {
      description: `Lists a folder: one name per line, sorted, folders ending in "/". ${PATH_RULES}`,
      inputSchema: z.object({ path: workspacePath.default(".") }),
    },
    ({ path }) => text(workspace.listFiles(path).join("\n")),
  );
  server.registerTool(
    "write_file",
    {
      description: `Creates a UTF-8 text file; replaces an existing one only with overwrite: true. ${PATH_RULES}`,
      inputSchema: z.object({ path: workspacePath, content: z.string(), overwrite: z.boolean().default(false) }),
    },
    ({ path, content, overwrite }) => text(`Wrote ${workspace.writeFile(path, content, overwrite)} bytes to ${path}.`),
  );
}

export function decodeUtf8(bytes: Buffer, path: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(`${JSON.stringify(path)} is not UTF-8 text.`);
  }
}
//#endregion

//#region media-tool
function registerMediaTool(server: McpServer): void {
  server.registerTool(
    "sample_media",
    { description: "Returns one content item of each kind: text, a generated PNG image and a generated WAV beep." },
    () => ({
      content: [
        { type: "text", text: "A 32×32 gradient and a quarter-second 440 Hz beep." },
        { type: "image", mimeType: "image/png", data: gradientPng().toString("base64") },
        { type: "audio", mimeType: "audio/wav", data: beepWav().toString("base64") },
      ],
    }),
  );
}
//#endregion

export function registerTools(server: McpServer, workspace: Workspace): void {
  registerSimpleTools(server);
  registerFileTools(server, workspace);
  registerMediaTool(server);
}
