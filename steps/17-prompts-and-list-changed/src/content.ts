// Turns tool results into lines a reader can follow: which kind of answer came back, then one line per content item.
// Binary content travels as base64; it is shown by MIME type and decoded size, never as base64 text.
import type { ContentBlock } from "@modelcontextprotocol/client";
import type { CallOutcome } from "./sdk-client.ts";

//#region content
// Base64 spends 4 characters on every 3 bytes, so the string's length is not the size of the data.
const decodedBytes = (base64: string) => Buffer.from(base64, "base64").length;

export function describeContent(item: ContentBlock): string {
  switch (item.type) {
    case "text":
      return `text ${JSON.stringify(item.text)}`;
    case "image":
    case "audio":
      return `${item.type} ${item.mimeType}, ${decodedBytes(item.data)} bytes`;
    case "resource": {
      const { uri, mimeType } = item.resource;
      const body =
        "text" in item.resource
          ? `${Buffer.byteLength(item.resource.text)} bytes of text`
          : `${decodedBytes(item.resource.blob)} bytes of blob`;
      return `resource ${uri} (${mimeType ?? "no MIME type"}), ${body}`;
    }
    case "resource_link":
      // A link carries no content: its size, if any, is what the server says the resource holds.
      return (
        `resource_link ${item.uri} ` +
        `(${item.mimeType ?? "no MIME type"})${item.size === undefined ? "" : `, ${item.size} bytes`}`
      );
  }
}
//#endregion

//#region outcome
/** The lines for one tools/call: which kind of answer came back, then its content. */
export function describeOutcome(outcome: CallOutcome): string[] {
  if (outcome.kind === "protocol error") return [`protocol error ${outcome.code}: ${outcome.message}`];
  const heading = outcome.kind === "tool error" ? "tool error (isError: true)" : "result";
  return [heading, ...outcome.result.content.map((item) => `  ${describeContent(item)}`)];
}
//#endregion
