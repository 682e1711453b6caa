// Demo: the application's side of MCP. The client lists and reads the server's resources, follows the link
// that sample_media returns, and is refused, in both eras the same way, where a read leaves the workspace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client, VersionNegotiationMode } from "@modelcontextprotocol/client";
import { listResources, readResource } from "./browse.ts";
import { describeContent } from "./content.ts";
import { connect, describeConnection } from "./sdk-client.ts";
import { sdkServer } from "./servers.ts";

const base = mkdtempSync(path.join(tmpdir(), "learn-mcp-resources-"));
process.on("exit", () => rmSync(base, { recursive: true, force: true }));
const workspace = path.join(base, "workspace");
mkdirSync(path.join(workspace, "docs"), { recursive: true });
writeFileSync(
  path.join(workspace, "notes.txt"),
  "Tools are called by the model; resources are read by the application.\n",
);
writeFileSync(path.join(workspace, "docs", "readme.md"), "# Docs\n");
writeFileSync(path.join(base, "secret.txt"), "outside the workspace\n");

const show = async (client: Client, uri: string) => {
  const [heading, ...lines] = await readResource(client, uri);
  console.log([`resources/read ${uri} -> ${heading}`, ...lines].join("\n"));
};

//#region follow-link
// A tool result may point at a resource instead of carrying it; the client reads it when it wants the bytes.
async function followLink(client: Client): Promise<void> {
  const { content } = await client.callTool({ name: "sample_media", arguments: {} });
  const link = content.find((item) => item.type === "resource_link");
  if (link === undefined) throw new Error("sample_media returned no resource_link");
  console.log(`tools/call sample_media {} -> ... ${describeContent(link)}`);
  await show(client, link.uri);
}
//#endregion

//#region tour
async function visit(mode: VersionNegotiationMode, read: (client: Client) => Promise<void>): Promise<void> {
  const { client, close } = await connect(sdkServer(workspace), mode);
  try {
    console.log(`== ${describeConnection(client)}`);
    await read(client);
  } finally {
    await close();
  }
}

const refused = ["workspace://file/..%2Fsecret.txt", "workspace://file/../secret.txt", "nowhere://at-all"];
await visit("legacy", async (client) => {
  console.log((await listResources(client)).join("\n"));
  await show(client, "sample://notes.md");
  await followLink(client);
  for (const uri of ["workspace://file/notes.txt", "workspace://file/docs/readme.md", ...refused])
    await show(client, uri);
});
console.log();
await visit({ pin: "2026-07-28" }, async (client) => {
  for (const uri of ["workspace://file/notes.txt", ...refused]) await show(client, uri);
});
//#endregion
