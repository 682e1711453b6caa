// Demo: the user's side of MCP, a prompt filled in with a workspace file, then add_note in both eras: the note
// changes the resource list, and each era hears of it its own way.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client, VersionNegotiationMode } from "@modelcontextprotocol/client";
import { getPrompt, listPrompts, listResources, readResource } from "./browse.ts";
import { describeOutcome } from "./content.ts";
import { watchResourceList } from "./list-changed.ts";
import { callTool, connect, describeConnection } from "./sdk-client.ts";
import { sdkServer } from "./servers.ts";

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-prompts-and-list-changed-"));
process.on("exit", () => rmSync(base, { recursive: true, force: true }));
const workspace = path.join(base, "workspace");
mkdirSync(workspace);
writeFileSync(
  path.join(workspace, "notes.txt"),
  "Tools are called by the model; resources are read by the application.\n",
);

const show = (request: string, [heading, ...lines]: string[]) =>
  console.log([`${request} -> ${heading}`, ...lines].join("\n"));

//#region prompts
async function fillPrompts(client: Client): Promise<void> {
  console.log(await listPrompts(client));
  const calls: Record<string, string>[] = [
    { path: "notes.txt", style: "detailed" },
    { path: "../secret.txt" },
    { style: "brief" },
  ];
  for (const args of calls)
    show(`prompts/get summarize_file ${JSON.stringify(args)}`, await getPrompt(client, "summarize_file", args));
}
//#endregion

//#region add-note
async function addNote(client: Client): Promise<void> {
  const watch = await watchResourceList(client);
  console.log(`listening: ${watch.how}`);
  const changed = watch.next(); // taken first: the notification may arrive before the tool's answer
  const args = { name: "todo", text: "Fill in the prompt in both eras." };
  show(`tools/call add_note ${JSON.stringify(args)}`, describeOutcome(await callTool(client, "add_note", args)));
  await changed;
  console.log("notifications/resources/list_changed arrived");
  console.log((await listResources(client))[0]);
  show("resources/read note://todo", await readResource(client, "note://todo"));
  await watch.close();
}
//#endregion

//#region tour
async function visit(mode: VersionNegotiationMode, steps: ((client: Client) => Promise<void>)[]): Promise<void> {
  const { client, close } = await connect(sdkServer(workspace), mode);
  try {
    console.log(`== ${describeConnection(client)}`);
    for (const step of steps) await step(client);
  } finally {
    await close();
  }
}

await visit("legacy", [fillPrompts, addNote]);
console.log();
await visit({ pin: "2026-07-28" }, [addNote]);
//#endregion
