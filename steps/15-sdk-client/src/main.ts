// Demo: one SDK Client visits three stdio servers: this step's own, the hand-written one and server-everything.
// Each visit picks a negotiation mode, lists the tools, makes a few calls and closes, then shows what the server
// logged.
import { SdkError, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describeOutcome } from "./content.ts";
import { callTool, connect, describeConnection } from "./sdk-client.ts";
import { everythingServer, handWrittenServer, sdkServer } from "./servers.ts";

const folder = mkdtempSync(path.join(tmpdir(), "learn-mcp-sdk-client-"));
process.on("exit", () => rmSync(folder, { recursive: true, force: true }));

type Call = [name: string, args: Record<string, unknown>];

//#region visit
// A pinned era has no fallback: a server that does not offer it fails the connect, with a typed error.
async function visit(title: string, server: StdioServerParameters, mode: VersionNegotiationMode, calls: Call[]) {
  console.log(`== ${title}, mode ${typeof mode === "string" ? mode : `pin ${mode.pin}`}`);
  const connection = await connect(server, mode).catch((error: unknown) => {
    if (error instanceof SdkError) return console.log(`connect failed: SdkError ${error.code}: ${error.message}`);
    throw error;
  });
  if (connection === undefined) return;
  const { client, stderr, close } = connection;
  try {
    console.log(`connected: ${describeConnection(client)}`);
    const { tools } = await client.listTools();
    console.log(`tools/list -> ${tools.map((tool) => tool.name).join(", ")}`);
    for (const [name, args] of calls) {
      const [heading, ...content] = describeOutcome(await callTool(client, name, args));
      console.log([`tools/call ${name} ${JSON.stringify(args)} -> ${heading}`, ...content].join("\n"));
    }
  } finally {
    await close();
    console.log(`server's stderr:\n${stderr().trimEnd().replace(/^/gm, "  ")}\n`);
  }
}
//#endregion

//#region tour
// The folder is the SDK server's workspace and the hand-written server's sandbox.
const add: Call = ["add", { a: 2, b: 40 }];
const unknownTool: Call = ["no_such_tool", {}];
await visit("this step's server", sdkServer(folder), "auto", [
  add,
  ["sample_media", {}],
  ["read_file", { path: "../secret.txt" }],
  unknownTool,
]);
await visit("the hand-written server", handWrittenServer(folder), "auto", [
  add,
  ["createFile", { path: "../escape.txt", content: "x" }],
  unknownTool,
]);
await visit("server-everything", everythingServer(), "legacy", [
  ["get-sum", { a: 2, b: 40 }],
  ["get-tiny-image", {}],
  unknownTool,
]);
await visit("server-everything", everythingServer(), { pin: "2026-07-28" }, []);
//#endregion
