// The three stdio servers this step's client visits, as the SDK's StdioServerParameters: a command and its arguments.
// Each is an outside program, started and never imported, and gets its folder as an argument.
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { fileURLToPath } from "node:url";
import { roleProgram } from "./roles.ts";

//#region servers
// tsx's loader by absolute path: the server's working folder may not be able to resolve "tsx".
const tsx = import.meta.resolve("tsx");

/** This step's own server, the previous step's, unchanged; it serves one workspace folder. */
export const sdkServer = (workspace: string): StdioServerParameters => ({
  command: process.execPath,
  args: ["--import", tsx, fileURLToPath(new URL("./server.ts", import.meta.url)), workspace],
});

/** The server written by hand, found through the role table; its createFile writes inside one sandbox folder. */
export const handWrittenServer = (sandbox: string): StdioServerParameters => ({
  command: process.execPath,
  args: ["--import", tsx, roleProgram("hand-written server"), sandbox],
});

/** The reference server, built on the previous SDK major (1.x); nobody in this project wrote it. */
export const everythingServer = (): StdioServerParameters => ({
  command: process.execPath,
  args: [fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js")), "stdio"],
});
//#endregion
