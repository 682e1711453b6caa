// describeContent and describeOutcome in-process: every content type, and the three kinds of answer.
import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { describeContent, describeOutcome } from "./content.ts";

const base64 = (bytes: number[]) => Buffer.from(bytes).toString("base64");

describe("describeContent", () => {
  it("sizes images and audio after base64 decoding, not by the length of the base64 text", () => {
    const data = base64([0x89, 0x50, 0x4e, 0x47, 0x0d]); // 5 bytes, 8 characters of base64
    expect(describeContent({ type: "image", mimeType: "image/png", data })).toBe("image image/png, 5 bytes");
    expect(describeContent({ type: "audio", mimeType: "audio/wav", data: base64([1, 2, 3, 4]) })).toBe(
      "audio audio/wav, 4 bytes",
    );
  });

  it("shows an embedded resource by uri, MIME type and size in UTF-8 bytes, text or blob", () => {
    const text = { type: "resource", resource: { uri: "demo://note", mimeType: "text/plain", text: "café" } } as const;
    expect(describeContent(text)).toBe("resource demo://note (text/plain), 5 bytes of text");
    const blob = { type: "resource", resource: { uri: "demo://raw", blob: base64([0, 255, 7]) } } as const;
    expect(describeContent(blob)).toBe("resource demo://raw (no MIME type), 3 bytes of blob");
  });

  it("quotes text so that quotes and line breaks stay visible", () => {
    expect(describeContent({ type: "text", text: 'say "hi"\nbye' })).toBe('text "say \\"hi\\"\\nbye"');
  });

  it("shows a resource link by uri, and its size only when the server declared one", () => {
    expect(
      describeContent({ type: "resource_link", uri: "file:///a.png", name: "a.png", mimeType: "image/png", size: 12 }),
    ).toBe("resource_link file:///a.png (image/png), 12 bytes");
    expect(describeContent({ type: "resource_link", uri: "file:///a.txt", name: "a.txt" })).toBe(
      "resource_link file:///a.txt (no MIME type)",
    );
  });
});

describe("describeOutcome", () => {
  const result: CallToolResult = { content: [{ type: "text", text: "no such zone" }] };

  it("heads a tool error with isError and still shows its content, which is meant for the model", () => {
    expect(describeOutcome({ kind: "tool error", result: { ...result, isError: true } })).toEqual([
      "tool error (isError: true)",
      '  text "no such zone"',
    ]);
    expect(describeOutcome({ kind: "result", result })).toEqual(["result", '  text "no such zone"']);
  });

  it("shows a protocol error with its JSON-RPC code and no content", () => {
    expect(describeOutcome({ kind: "protocol error", code: -32602, message: "Tool nope not found" })).toEqual([
      "protocol error -32602: Tool nope not found",
    ]);
  });
});
