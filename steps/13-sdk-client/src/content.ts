// Turns tool results into lines a learner can read: one line per content block, one block per kind.
// Binary content travels as base64; it is shown by MIME type and decoded size, never as base64 text.
import type { ContentBlock, EmbeddedResource } from "@modelcontextprotocol/client";
import type { CallOutcome } from "./sdk-client.ts";

//#region content
// Base64 spends 4 characters on every 3 bytes, so the string's length is not the size of the data.
const decodedBytes = (base64: string) => Buffer.from(base64, "base64").length;

function describeResource({ resource }: EmbeddedResource): string {
  const body = "text" in resource
    ? `${Buffer.byteLength(resource.text, "utf8")} bytes of text`
    : `${decodedBytes(resource.blob)} bytes of blob`;
  return `resource ${resource.uri} (${resource.mimeType ?? "no MIME type"}), ${body}`;
}

export function describeContent(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return `text ${JSON.stringify(block.text)}`;
    case "image":
    case "audio":
      return `${block.type} ${block.mimeType}, ${decodedBytes(block.data)} bytes`;
    case "resource":
      return describeResource(block);
    case "resource_link":
      return `resource_link ${block.uri}`;
  }
}
//#endregion

//#region outcome
/** The lines for one tools/call: which kind of answer came back, then its content. */
export function describeOutcome(outcome: CallOutcome): string[] {
  if (outcome.kind === "protocol error") {
    return [`protocol error: ProtocolError ${outcome.code}: ${outcome.message}`];
  }
  const heading = outcome.kind === "tool error" ? "tool error (isError: true)" : "result";
  return [heading, ...outcome.result.content.map((block) => `  ${describeContent(block)}`)];
}
//#endregion
