// Notes: the add_note tool stores a short text, and each note is a resource at note://{name}. The resource list now
// changes while a client is connected, so the server says so: notifications/resources/list_changed.
import { ResourceNotFoundError, ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

type Notes = Map<string, string>;
//#region note-template
const noteUri = (name: string) => `note://${name}`;

// The list callback runs on every resources/list, so the list always shows the notes of this moment.
function registerNoteTemplate(server: McpServer, notes: Notes): void {
  const list = () => ({
    resources: [...notes.keys()].map((name) => ({ uri: noteUri(name), name, mimeType: "text/plain" })),
  });
  server.registerResource(
    "note",
    new ResourceTemplate("note://{name}", { list }),
    { description: "A note added with add_note.", mimeType: "text/plain" },
    (uri, { name }) => {
      const text = notes.get(String(name));
      if (text === undefined) throw new ResourceNotFoundError(uri.href);
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
    },
  );
}
//#endregion

//#region add-note
function registerAddNote(server: McpServer, notes: Notes): void {
  server.registerTool(
    "add_note",
    {
      description: "Adds a note; it appears in resources/list as note://<name>.",
      inputSchema: z.strictObject({
        name: z.string().regex(/^[a-z0-9-]{1,40}$/, "use 1 to 40 of a-z, 0-9 and -"),
        text: z.string(),
      }),
    },
    ({ name, text }) => {
      if (notes.has(name))
        return { content: [{ type: "text", text: `${noteUri(name)} already exists.` }], isError: true };
      notes.set(name, text);
      // resources/list now answers differently; the notification says only that, and the client lists again.
      server.sendResourceListChanged();
      return { content: [{ type: "text", text: `Added ${noteUri(name)}.` }] };
    },
  );
}
//#endregion

/** The factory calls this once per connection: every client starts with no notes, and they go when it leaves. */
export function registerNotes(server: McpServer): void {
  const notes: Notes = new Map();
  registerNoteTemplate(server, notes);
  registerAddNote(server, notes);
}
