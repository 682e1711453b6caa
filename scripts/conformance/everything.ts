// The conformance harness's server (not a lesson): the tutorial's HTTP McpServer, found through the role table, plus
// every fixture the official suite calls by name. `everything.ts --port N` serves it over HTTP, `--stdio` over stdio.
import type { McpServer } from "@modelcontextprotocol/server";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";
import { serveEverything } from "./serve.ts";

const FACTORY_ROLE = "SDK server over HTTP, its McpServer factory";

const { createMcpServer } = (await import(roleProgram(FACTORY_ROLE))) as { createMcpServer: () => McpServer };
serveEverything(createMcpServer, process.argv.slice(2));
