// Step 07 demo: the SDK Client reads this step's server's resources and prompt, then adds a note in both eras.
// The note changes resources/list, and each era hears of it its own way; the temporary folder goes at the end.
import type { Client, VersionNegotiationMode } from "@modelcontextprotocol/client";
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getPrompt, listAll, listResources, readResource } from "./browse.ts";
import { describeOutcome } from "./content.ts";
import { watchResourceList } from "./list-changed.ts";
import { callTool, connect, describeConnection } from "./sdk-client.ts";
import { sdkServer } from "./servers.ts";

type Step = (client: Client) => Promise<void>;
const showMode = (mode: VersionNegotiationMode) => (typeof mode === "string" ? mode : `pin ${mode.pin}`);
const indent = (text: string) => text.trimEnd().replace(/^/gm, "  ");
// Pinned, a probe that times out does not fall back: it fails the connect as if the server "did not offer" the
// revision. sdk-client.ts's 5 s is too short for a TypeScript server on a loaded machine, so the demo waits longer.
const PINNED_PROBE_TIMEOUT_MS = 30_000;
const show = (request: string, [heading, ...lines]: string[]) => console.log([`${request} -> ${heading}`, ...lines].join("\n"));

//#region browse
async function browse(client: Client) {
  console.log((await listAll(client)).join("\n"));
  const uris = ["about://server", "media://gradient.png", "workspace://file/notes.txt", "workspace://file/..%2Fsecret.txt"];
  for (const uri of uris) show(`resources/read ${uri}`, await readResource(client, uri));
  const prompts: Record<string, string>[] = [{ path: "notes.txt", style: "detailed" }, { style: "brief" }];
  for (const args of prompts) {
    show(`prompts/get summarize_file ${JSON.stringify(args)}`, await getPrompt(client, "summarize_file", args));
  }
}
//#endregion

//#region add-note
async function addNote(client: Client) {
  const watch = await watchResourceList(client);
  console.log(`listening: ${watch.how}`);
  const changed = watch.next(); // taken first: the notification may arrive before the tool's answer
  const args = { name: "todo", text: "Read chapter 08." };
  show(`tools/call add_note ${JSON.stringify(args)}`, describeOutcome(await callTool(client, "add_note", args)));
  await changed;
  console.log("notifications/resources/list_changed arrived");
  console.log(await listResources(client));
  show("resources/read note://todo", await readResource(client, "note://todo"));
  await watch.close();
}
//#endregion

//#region visit
async function visit(title: string, server: StdioServerParameters, mode: VersionNegotiationMode, steps: Step[]) {
  console.log(`== ${title}, mode ${showMode(mode)}`);
  const { client, close } = await connect(server, mode, PINNED_PROBE_TIMEOUT_MS);
  try {
    console.log(`connected: ${describeConnection(client)}`);
    console.log(`server capabilities: ${JSON.stringify(client.getServerCapabilities())}`);
    const { tools } = await client.listTools();
    console.log(`tools/list -> ${tools.map((tool) => tool.name).join(", ")}`);
    for (const step of steps) await step(client);
  } finally {
    console.log(`server's stderr:\n${indent(await close())}\n`);
  }
}
//#endregion

//#region tour
// The workspace sits inside the temporary folder, next to a secret.txt that no read may reach.
const folder = await mkdtemp(join(tmpdir(), "learn-mcp-07-"));
try {
  const workspace = join(folder, "workspace");
  await mkdir(workspace);
  await writeFile(join(workspace, "notes.txt"), "Tools are called by the model; resources are read by the application.\n");
  await writeFile(join(folder, "secret.txt"), "outside the workspace\n");
  await visit("this step's server", sdkServer(workspace), "legacy", [browse, addNote]);
  await visit("this step's server", sdkServer(workspace), { pin: "2026-07-28" }, [addNote]);
} finally {
  await rm(folder, { recursive: true, force: true });
}
//#endregion
