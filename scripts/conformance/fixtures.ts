// The fixtures the official conformance suite calls by name, for both protocol eras: content tools, resources, prompts,
// completion. Each returns what the suite's scenario description asks for, and nothing the tutorial's server needs.
import {
  completable,
  fromJsonSchema,
  ResourceTemplate,
  type CallToolResult,
  type JsonSchemaType,
  type McpServer,
} from "@modelcontextprotocol/server";
import { setTimeout as sleep } from "node:timers/promises";
import * as z from "zod";

// A 1×1 red PNG, and a WAV of 8 silent samples: the smallest valid files of each type.
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
function silentWav(samples = 8, rate = 8000): string {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16); // the size of the format chunk
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // one channel
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes a second: one byte a sample
  header.writeUInt16LE(1, 32); // bytes a frame
  header.writeUInt16LE(8, 34); // bits a sample
  header.write("data", 36);
  header.writeUInt32LE(samples, 40);
  // 8-bit PCM is unsigned: 128 is silence
  return Buffer.concat([header, Buffer.alloc(samples, 128)]).toString("base64");
}
const WAV = silentWav();

// A contact reached by phone or email, with every 2020-12 keyword the suite looks for: $defs, $anchor, $ref, allOf,
// anyOf, if/then/else and additionalProperties.
const CONTACT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: {
    address: {
      $anchor: "addressDef",
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
} as JsonSchemaType;

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const noArguments = z.object({});

//#region content tools
export function registerContentTools(server: McpServer): void {
  server.registerTool("test_simple_text", { description: "Returns one text block.", inputSchema: noArguments }, () =>
    text("This is a simple text response for testing."),
  );
  server.registerTool("test_image_content", { description: "Returns a 1x1 PNG.", inputSchema: noArguments }, () => ({
    content: [{ type: "image", data: PNG, mimeType: "image/png" }],
  }));
  server.registerTool(
    "test_audio_content",
    { description: "Returns a short silent WAV.", inputSchema: noArguments },
    () => ({
      content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }],
    }),
  );
  server.registerTool(
    "test_embedded_resource",
    { description: "Returns an embedded text resource.", inputSchema: noArguments },
    () => ({
      content: [
        {
          type: "resource",
          resource: {
            uri: "test://embedded-resource",
            mimeType: "text/plain",
            text: "This is an embedded resource content.",
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_multiple_content_types",
    { description: "Returns text, an image and a resource.", inputSchema: noArguments },
    () => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG, mimeType: "image/png" },
        {
          type: "resource",
          resource: {
            uri: "test://mixed-content-resource",
            mimeType: "application/json",
            text: '{"test":"data","value":123}',
          },
        },
      ],
    }),
  );
  server.registerTool(
    "test_error_handling",
    { description: "Always fails, as a tool result.", inputSchema: noArguments },
    () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  );
  // SEP-1613/2106: a JSON Schema 2020-12 inputSchema, given as JSON so that tools/list shows every keyword unchanged.
  server.registerTool(
    "json_schema_2020_12_tool",
    { description: "Takes a contact in a JSON Schema 2020-12 schema.", inputSchema: fromJsonSchema(CONTACT_SCHEMA) },
    () => text("Contact accepted."),
  );
  server.registerTool(
    "test_tool_with_progress",
    { description: "Reports progress 0, 50, 100 of 100.", inputSchema: noArguments },
    async (_args, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await sleep(50);
        if (progressToken !== undefined)
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken, progress, total: 100 },
          });
      }
      return text("Progress test completed.");
    },
  );
}
//#endregion

//#region resources
export function registerResources(server: McpServer): void {
  server.registerResource(
    "static-text",
    "test://static-text",
    { description: "A fixed text resource.", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "This is the content of the static text resource." }],
    }),
  );
  server.registerResource(
    "static-binary",
    "test://static-binary",
    { description: "A fixed PNG.", mimeType: "image/png" },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "image/png", blob: PNG }],
    }),
  );
  server.registerResource(
    "watched-resource",
    "test://watched-resource",
    { description: "A resource to subscribe to.", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: "Watched resource content." }],
    }),
  );
  const template = new ResourceTemplate("test://template/{id}/data", { list: undefined });
  server.registerResource(
    "template-data",
    template,
    { description: "Data for any id.", mimeType: "application/json" },
    (uri, { id }) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: "application/json",
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  );
}
//#endregion

//#region prompts
export function registerPrompts(server: McpServer): void {
  server.registerPrompt("test_simple_prompt", { description: "A prompt without arguments." }, () => ({
    messages: [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }],
  }));
  // completion/complete for arg1 is served from the completable schema: the suite's completion scenario asks for it.
  const arg1 = completable(z.string().describe("First test argument"), (value) =>
    ["paris", "park", "party"].filter((word) => word.startsWith(value)),
  );
  server.registerPrompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two arguments.",
      argsSchema: z.object({ arg1, arg2: z.string().describe("Second test argument") }),
    },
    ({ arg1, arg2 }) => ({
      messages: [
        { role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
      ],
    }),
  );
  server.registerPrompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds a resource.",
      argsSchema: z.object({ resourceUri: z.string().describe("URI of the resource to embed") }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    }),
  );
  server.registerPrompt("test_prompt_with_image", { description: "A prompt with an image." }, () => ({
    messages: [
      { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
      { role: "user", content: { type: "text", text: "Please analyze the image above." } },
    ],
  }));
}
//#endregion
