// The server's resources: a text guide and a PNG at fixed URIs, and a template that reads any workspace file.
// The application reads resources, not the model, so a refused read is a JSON-RPC error rather than an isError result.
import {
  ProtocolError, ProtocolErrorCode, ResourceTemplate, type McpServer, type ReadResourceResult,
} from "@modelcontextprotocol/server";
import { gradientPng } from "./media.ts";
import { decodeUtf8 } from "./tools.ts";
import type { Workspace } from "./workspace.ts";

const ABOUT = `# learn-mcp-sdk-server
Serves one workspace folder: tools change it, resources show it, the summarize_file prompt asks about one file.
`;

//#region static
function registerStaticResources(server: McpServer): void {
  server.registerResource(
    "about",
    "about://server",
    { title: "About this server", mimeType: "text/markdown" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: ABOUT }] }),
  );
  server.registerResource(
    "gradient",
    "media://gradient.png",
    { description: "The 32×32 gradient that sample_media returns, as a resource.", mimeType: "image/png" },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: "image/png", blob: gradientPng().toString("base64") }] }),
  );
}
//#endregion

//#region read-file
type ResourceContents = ReadResourceResult["contents"][number];

/** `workspace://file/` and the path, each folder name percent-encoded, so that `/` stays a separator. */
export const fileUri = (path: string) => `workspace://file/${path.split("/").map(encodeURIComponent).join("/")}`;

/** Reads one workspace file as a resource: UTF-8 text as `text`, anything else as a base64 `blob`. */
export function readWorkspaceFile(workspace: Workspace, path: string): ResourceContents {
  let bytes: Buffer;
  try {
    bytes = workspace.readFile(path); // the same confinement as read_file: no `..` out, no symbolic link
  } catch (error) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, (error as Error).message);
  }
  try {
    return { uri: fileUri(path), mimeType: "text/plain", text: decodeUtf8(bytes, path) };
  } catch {
    return { uri: fileUri(path), mimeType: "application/octet-stream", blob: bytes.toString("base64") };
  }
}
//#endregion

//#region template
// `{+path}` matches across "/", where `{path}` would stop at the first one. The SDK hands the variable over
// still percent-encoded, so decoding happens here, before the workspace checks the path.
function registerFileTemplate(server: McpServer, workspace: Workspace): void {
  server.registerResource(
    "workspace-file",
    new ResourceTemplate("workspace://file/{+path}", { list: undefined }),
    { description: "A file in the workspace folder, read with the same rules as read_file." },
    (_uri, { path }) => {
      const encoded = String(path);
      let decoded: string;
      try {
        decoded = decodeURIComponent(encoded);
      } catch {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${JSON.stringify(encoded)} is not a valid encoded path.`);
      }
      return { contents: [readWorkspaceFile(workspace, decoded)] };
    },
  );
}
//#endregion

export function registerResources(server: McpServer, workspace: Workspace): void {
  registerStaticResources(server);
  registerFileTemplate(server, workspace);
}
