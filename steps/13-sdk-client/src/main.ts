// Step 06 demo: one SDK Client, three stdio servers: this step's own, step 03's and the reference server-everything.
// Each visit picks a protocol era, lists tools, makes a few calls and closes; the temporary folder goes at the end.
import { SdkError, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeOutcome } from "./content.ts";
import { callTool, connect, describeConnection } from "./sdk-client.ts";
import { everythingServer, handWrittenServer, sdkServer } from "./servers.ts";

type Call = [name: string, args: Record<string, unknown>];
const showMode = (mode: VersionNegotiationMode) => (typeof mode === "string" ? mode : `pin ${mode.pin}`);
const indent = (text: string) => text.trimEnd().replace(/^/gm, "  ");

//#region visit
async function visit(title: string, server: StdioServerParameters, mode: VersionNegotiationMode, calls: Call[]) {
  console.log(`== ${title}, mode ${showMode(mode)}`);
  const { client, close } = await connect(server, mode);
  try {
    console.log(`connected: ${describeConnection(client)}`);
    const { tools } = await client.listTools();
    console.log(`tools/list -> ${tools.map((tool) => tool.name).join(", ")}`);
    for (const [name, args] of calls) {
      const [heading, ...content] = describeOutcome(await callTool(client, name, args));
      console.log(`tools/call ${name} ${JSON.stringify(args)} -> ${heading}`);
      for (const line of content) console.log(line);
    }
  } finally {
    console.log(`server's stderr:\n${indent(await close())}\n`);
  }
}
//#endregion

//#region pinned
// A pinned modern era has no fallback: a server that cannot speak it fails the connect, loudly.
async function connectPinned(title: string, server: StdioServerParameters): Promise<void> {
  const mode = { pin: "2026-07-28" };
  console.log(`== ${title}, mode ${showMode(mode)}`);
  try {
    const { close } = await connect(server, mode);
    await close();
    console.log("connected");
  } catch (error) {
    if (!(error instanceof SdkError)) throw error;
    console.log(`connect failed: SdkError ${error.code}: ${error.message}`);
  }
}
//#endregion

//#region tour
// The same two mistakes for both servers of this project: a tool that runs and fails, and a tool that does not exist.
const mistakes: Call[] = [
  ["get_current_time", { timeZone: "Mars/Olympus_Mons" }],
  ["no_such_tool", {}],
];
const folder = await mkdtemp(join(tmpdir(), "learn-mcp-06-"));
try {
  await visit("this step's SDK server (src/server.ts)", sdkServer(folder), "auto", [
    ["add", { a: 2, b: 40 }],
    ["sample_media", {}],
    ...mistakes,
  ]);
  await visit("step 03's hand-written server", handWrittenServer(folder), "auto", [["add", { a: 2, b: 40 }], ...mistakes]);
  await visit("server-everything", everythingServer(), "legacy", [
    ["get-sum", { a: 2, b: 40 }],
    ["get-tiny-image", {}],
    ["get-resource-reference", {}],
    ["no_such_tool", {}],
  ]);
  await connectPinned("server-everything", everythingServer());
} finally {
  await rm(folder, { recursive: true, force: true });
}
//#endregion
