// callTool's sorting, in-process with stand-in clients. The SDK client's step ran it against real servers in each mode;
// here every other test connects through it (test/sdk.ts), so this file need not start a server again.
import { Client, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { callTool } from "./sdk-client.ts";

describe("callTool", () => {
  // Stand-ins for the SDK's Client: each answers callTool the way a real one can.
  const answering = (callTool: () => Promise<unknown>) => ({ callTool }) as unknown as Client;
  const content = [{ type: "text", text: "x" }];

  it("keeps a result and a tool error apart by isError, and only true counts", async () => {
    expect(
      await callTool(
        answering(async () => ({ content })),
        "t",
      ),
    ).toMatchObject({ kind: "result" });
    expect(
      await callTool(
        answering(async () => ({ content, isError: false })),
        "t",
      ),
    ).toMatchObject({ kind: "result" });
    expect(
      await callTool(
        answering(async () => ({ content, isError: true })),
        "t",
      ),
    ).toMatchObject({ kind: "tool error" });
  });

  it("turns a JSON-RPC error into a protocol error with its code", async () => {
    const refusing = answering(async () => {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Tool t not found");
    });
    expect(await callTool(refusing, "t")).toEqual({
      kind: "protocol error",
      code: -32602,
      message: "Tool t not found",
    });
  });

  it("lets the SDK's own failures, such as a timeout, throw: no server answered them", async () => {
    const timedOut = new SdkError(SdkErrorCode.RequestTimeout, "Request timed out");
    await expect(
      callTool(
        answering(async () => Promise.reject(timedOut)),
        "t",
      ),
    ).rejects.toBe(timedOut);
  });
});
