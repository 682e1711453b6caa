// The client's side of resources and prompts: list them, read a resource, fill a prompt, each answer as lines.
// A request the server refuses becomes a "protocol error" line, as in callTool; the SDK's own failures still throw.
import { ProtocolError, type Client, type ReadResourceResult } from "@modelcontextprotocol/client";
import { describeContent } from "./content.ts";

//#region list
/** resources/list as one line of URIs: the fixed resources, then whatever the templates' list callbacks add. */
export async function listResources(client: Client): Promise<string> {
  const { resources } = await client.listResources();
  return `resources/list -> ${resources.map((resource) => resource.uri).join(", ")}`;
}

/** Also templates by URI template, and prompts with their arguments (`?` marks an optional one). */
export async function listAll(client: Client): Promise<string[]> {
  const { resourceTemplates } = await client.listResourceTemplates();
  const { prompts } = await client.listPrompts();
  const signature = (name: string, args: { name: string; required?: boolean }[] = []) =>
    `${name}(${args.map((arg) => (arg.required ? arg.name : `${arg.name}?`)).join(", ")})`;
  return [
    await listResources(client),
    `resources/templates/list -> ${resourceTemplates.map((template) => template.uriTemplate).join(", ")}`,
    `prompts/list -> ${prompts.map((prompt) => signature(prompt.name, prompt.arguments)).join(", ")}`,
  ];
}
//#endregion

async function orProtocolError(request: () => Promise<string[]>): Promise<string[]> {
  try {
    return ["result", ...(await request())];
  } catch (error) {
    if (error instanceof ProtocolError) return [`protocol error: ProtocolError ${error.code}: ${error.message}`];
    throw error;
  }
}

//#region read
// A resource's contents are an embedded resource without its wrapper, so content.ts can describe them as they are.
function describeContents(resource: ReadResourceResult["contents"][number]): string[] {
  const head = `  ${describeContent({ type: "resource", resource })}`;
  return "text" in resource ? [head, `    ${JSON.stringify(resource.text)}`] : [head];
}

/** resources/read: the heading "result" and each item's uri, MIME type and decoded size, or the refusal. */
export const readResource = (client: Client, uri: string) =>
  orProtocolError(async () => (await client.readResource({ uri })).contents.flatMap(describeContents));
//#endregion

//#region get-prompt
/** prompts/get: the heading "result" and one line per message, by role and content, or the refusal. */
export const getPrompt = (client: Client, name: string, args: Record<string, string>) =>
  orProtocolError(async () => {
    const { messages } = await client.getPrompt({ name, arguments: args });
    return messages.map((message) => `  ${message.role}: ${describeContent(message.content)}`);
  });
//#endregion
