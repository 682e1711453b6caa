// The stdio server this step's client starts, as the SDK's StdioServerParameters: a command and its arguments.
// It is an outside program, started and never imported, and gets its folder as an argument.
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { fileURLToPath } from "node:url";

//#region servers
// tsx's loader by absolute path: the server's working folder may not be able to resolve "tsx".
const tsx = import.meta.resolve("tsx");

/** This step's own server; it serves one workspace folder. */
export const sdkServer = (workspace: string): StdioServerParameters => ({
  command: process.execPath,
  args: ["--import", tsx, fileURLToPath(new URL("./server.ts", import.meta.url)), workspace],
});
//#endregion
