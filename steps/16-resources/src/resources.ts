// The server's resources: the two sample:// items that sample_media embeds and links, and a template for workspace
// files. The application reads resources, not the model, so a refused read is a JSON-RPC error rather than an isError
// result.
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type TextResourceContents,
} from "@modelcontextprotocol/server";
import { gradientPng } from "./media.ts";
import { readInside, WorkspaceError } from "./workspace.ts";

export const NOTES_URI = "sample://notes.md";
export const GRADIENT_URI = "sample://gradient.png";
export const NOTES = "# Samples\n\nAn embedded resource carries its content; a resource link only points to it.\n";

//#region samples
function registerSamples(server: McpServer): void {
  server.registerResource("notes", NOTES_URI, { title: "Sample notes", mimeType: "text/markdown" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/markdown", text: NOTES }],
  }));
  server.registerResource("gradient", GRADIENT_URI, { title: "The sample gradient", mimeType: "image/png" }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: "image/png", blob: gradientPng().toString("base64") }],
  }));
}
//#endregion

//#region read-file
/** `workspace://file/` and the path, each name percent-encoded so that "/" stays a separator. */
export const fileUri = (path: string) => `workspace://file/${path.split("/").map(encodeURIComponent).join("/")}`;

// A refusal answers -32602 with data {uri}, the SDK's "resource not found"; anything else, which may name an
// absolute path, goes only to stderr.
export function readWorkspaceFile(workspace: string, path: string, uri = fileUri(path)): TextResourceContents {
  try {
    return { uri, mimeType: "text/plain", text: readInside(workspace, path) };
  } catch (error) {
    if (error instanceof WorkspaceError) throw new ResourceNotFoundError(uri, `${uri} refused: ${error.message}`);
    console.error(`[server] reading ${uri} failed:`, error);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `reading ${uri} failed with an internal error`);
  }
}
//#endregion

//#region template
// `{+path}` matches across "/", where `{path}` would stop at the first one. The SDK hands the variable over still
// percent-encoded: it is decoded first and checked second, or "..%2F" would pass the check and open "../".
function registerWorkspaceFiles(server: McpServer, workspace: string): void {
  server.registerResource(
    "workspace-file",
    new ResourceTemplate("workspace://file/{+path}", { list: undefined }),
    {
      description: "A UTF-8 text file in the workspace folder, read by the same rules as read_file.",
      mimeType: "text/plain",
    },
    (uri, { path }) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(String(path));
      } catch {
        throw new ResourceNotFoundError(uri.href, `${uri.href}: the path is not valid percent-encoding`);
      }
      return { contents: [readWorkspaceFile(workspace, decoded, uri.href)] };
    },
  );
}
//#endregion

/** Registers the fixed sample resources and the template over the workspace's files. */
export function registerResources(server: McpServer, workspace: string): void {
  registerSamples(server);
  registerWorkspaceFiles(server, workspace);
}
