// The summarize_file prompt: a message template the user picks, filled in with arguments, that embeds a workspace file.
// Embedding the file as a resource keeps its URI and MIME type next to its text, so the model knows what it reads.
import type { GetPromptResult, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { readWorkspaceFile } from "./resources.ts";

const STYLES = { brief: "in one sentence", detailed: "as a short list of its main points" };

//#region summarize-file
// Prompt arguments travel as strings; the schema checks them before the handler runs, so a missing path is -32602.
export function registerPrompts(server: McpServer, workspace: string): void {
  server.registerPrompt(
    "summarize_file",
    {
      title: "Summarize a file",
      description: "Asks the model to summarize one workspace file, embedded in the messages as a resource.",
      argsSchema: z.strictObject({
        path: z.string().describe("A path inside the workspace folder."),
        style: z.enum(["brief", "detailed"]).optional().describe('"brief" (the default) or "detailed".'),
      }),
    },
    ({ path, style = "brief" }): GetPromptResult => ({
      description: `Summarize ${path}, ${style}`,
      messages: [
        { role: "user", content: { type: "resource", resource: readWorkspaceFile(workspace, path) } },
        { role: "user", content: { type: "text", text: `Summarize the file above ${STYLES[style]}.` } },
      ],
    }),
  );
}
//#endregion
