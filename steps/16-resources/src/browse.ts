// The client's side of resources: list the resources and the templates, and read one, each answer as lines.
// A refused read is a JSON-RPC error, so it arrives as a ProtocolError; the SDK's own failures still throw.
import {
  ProtocolError,
  ResourceNotFoundError,
  type Client,
  type ReadResourceResult,
} from "@modelcontextprotocol/client";
import { describeContent } from "./content.ts";

//#region list
/** resources/list and resources/templates/list, one line each: what the application can offer to read. */
export async function listResources(client: Client): Promise<string[]> {
  const { resources } = await client.listResources();
  const { resourceTemplates } = await client.listResourceTemplates();
  return [
    `resources/list -> ${resources.map((resource) => `${resource.uri} (${resource.mimeType})`).join(", ")}`,
    `resources/templates/list -> ` +
      `${resourceTemplates.map((template) => `${template.uriTemplate} (${template.mimeType})`).join(", ")}`,
  ];
}
//#endregion

/** The lines of a request's result, or one line for the server's refusal. */
// A refusal is the server's answer and becomes a line; the SDK's own failures (a timeout, a closed pipe) still throw.
async function orRefusal(request: () => Promise<string[]>): Promise<string[]> {
  try {
    return ["result", ...(await request())];
  } catch (error) {
    // The SDK rebuilds a ResourceNotFoundError from any -32602 (or the older -32002) whose data is { uri }.
    if (error instanceof ResourceNotFoundError) return [`resource not found (${error.code}): ${error.message}`];
    if (error instanceof ProtocolError) return [`protocol error ${error.code}: ${error.message}`];
    throw error;
  }
}

//#region read
// Each item of a read is shaped like the resource inside an embedded resource, so describeContent shows it.
function describeContents(resource: ReadResourceResult["contents"][number]): string[] {
  const head = `  ${describeContent({ type: "resource", resource })}`;
  return "text" in resource ? [head, `    ${JSON.stringify(resource.text)}`] : [head];
}

/** resources/read: "result" and each item by uri, MIME type and decoded size, text quoted; or the refusal. */
export const readResource = (client: Client, uri: string) =>
  orRefusal(async () => (await client.readResource({ uri })).contents.flatMap(describeContents));
//#endregion
