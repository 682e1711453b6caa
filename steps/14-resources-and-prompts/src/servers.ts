// The three stdio servers this step's client talks to, as the SDK's StdioServerParameters.
// Each is an outside program, started and never imported, and gets its settings as arguments.
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { fileURLToPath } from "node:url";
import { roleProgram } from "./roles.ts";

//#region servers
// tsx's loader by absolute path: the server's working folder may not be able to resolve "tsx".
const tsxLoader = import.meta.resolve("tsx");
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** This step's own server: chapter 05's McpServer plus resources, prompts and add_note; it serves one workspace folder. */
export const sdkServer = (workspace: string): StdioServerParameters => ({
  command: process.execPath,
  args: ["--import", tsxLoader, here("./server.ts"), workspace],
});

/** The server written by hand, found through the role table; createFile writes inside one sandbox folder. */
export const handWrittenServer = (sandbox: string): StdioServerParameters => ({
  command: process.execPath,
  args: ["--import", tsxLoader, roleProgram("hand-written server"), sandbox],
});

/** The reference server, built on the previous SDK major (v1); nobody in this project wrote it. */
export const everythingServer = (): StdioServerParameters => ({
  command: process.execPath,
  args: [fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js")), "stdio"],
  // Its embedded resource ends in a local time ("9:05:03 AM"); a 24-hour locale gives it the same length every run.
  // The SDK adds `env` to the few variables it passes on (PATH, HOME, ...), so this one setting is enough.
  env: { LC_ALL: "en_GB.UTF-8" },
});
//#endregion
