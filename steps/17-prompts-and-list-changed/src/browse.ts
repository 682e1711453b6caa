// The client's side of resources and prompts: list them, read a resource, fill in a prompt, each answer as lines.
// A refused read or prompt is a JSON-RPC error, so it arrives as a ProtocolError; the SDK's own failures still throw.
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

//#region prompts
/** prompts/list as one line: each prompt with its arguments, "?" marking an optional one. */
export async function listPrompts(client: Client): Promise<string> {
  const { prompts } = await client.listPrompts();
  const signature = ({ name, arguments: args = [] }: (typeof prompts)[number]) =>
    `${name}(${args.map((arg) => (arg.required ? arg.name : `${arg.name}?`)).join(", ")})`;
  return `prompts/list -> ${prompts.map(signature).join(", ")}`;
}

/** prompts/get: "result" and one line per message, by role and content; or the refusal. */
export const getPrompt = (client: Client, name: string, args: Record<string, string>) =>
  orRefusal(async () =>
    (await client.getPrompt({ name, arguments: args })).messages.map(
      (message) => `  ${message.role}: ${describeContent(message.content)}`,
    ),
  );
//#endregion
