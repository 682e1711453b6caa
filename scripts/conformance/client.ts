// The conformance harness's client (not a lesson): the SDK client over Streamable HTTP, run by the suite once per
// client scenario as `client.ts <url>` with MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT and
// MCP_CONFORMANCE_PROTOCOL_VERSION. One plain tour serves every scenario: connect, list the tools, call each; the
// scenario's server does the checking.
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type Tool } from "@modelcontextprotocol/client";
import { fetchOnFreshConnection } from "./fresh-fetch.ts";
import { ScriptedOAuthProvider } from "./oauth.ts";

const MODERN = "2026-07-28";
const [url] = process.argv.slice(2);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as {
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  client_id?: string;
  client_secret?: string;
};
// The suite runs every client scenario at once, each with its own servers in the suite's one process: on a loaded
// machine an answer can take longer than the SDK's 60 s default. 230 s stays inside the harness's 240 s per scenario.
const PATIENCE = { timeout: 230_000 };
const log = (line: string) => console.error(`[client ${scenario}] ${(performance.now() / 1000).toFixed(2)} s: ${line}`);

//#region answers
// What a person and a model would answer, made up: the scenario checks that the request arrives and the answer returns.
type Property = { type?: string; default?: unknown };
type ObjectSchema = { properties?: Record<string, Property> };

/** An example value of a JSON Schema property: its default if it has one, else a plain value of its type. */
function example({ type, default: fallback }: Property): unknown {
  if (fallback !== undefined) return fallback;
  const byType: Record<string, unknown> = {
    number: 1,
    integer: 1,
    boolean: true,
    array: [],
    object: {},
    string: "example",
  };
  return byType[type ?? "string"] ?? "example";
}
const exampleObject = (schema: ObjectSchema | undefined) =>
  Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([name, property]) => [name, example(property)]));

function answerRequests(client: Client): void {
  // The form is accepted as filled in with the schema's defaults (SEP-1034: a client applies them).
  client.setRequestHandler("elicitation/create", ({ params }) => ({
    action: "accept",
    content:
      "requestedSchema" in params
        ? (exampleObject(params.requestedSchema as ObjectSchema) as Record<string, string>)
        : {},
  }));
  client.setRequestHandler("sampling/createMessage", () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "conformance-stand-in",
    stopReason: "endTurn",
  }));
  client.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///tmp/conformance", name: "conformance" }] }));
}
//#endregion

//#region authorization
// A 401 (or a 403 asking for more scope) makes the transport run the OAuth flow up to the redirect and throw
// UnauthorizedError; the provider has followed the redirect, so the callback is redeemed and the step tried again.
// Three rounds at most: a server that keeps refusing is not asked forever (auth/scope-retry-limit).
const registered =
  context.client_id === undefined ? undefined : { client_id: context.client_id, client_secret: context.client_secret };
const oauth = new ScriptedOAuthProvider(fetchOnFreshConnection, registered);
let transport: StreamableHTTPClientTransport | undefined;

async function authorized<T>(step: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await step();
    } catch (error) {
      const callback = oauth.takeCallback();
      if (!(error instanceof UnauthorizedError) || callback === undefined || round >= 3) throw error;
      await transport!.finishAuth(callback);
      oauth.finished();
      log("authorized; trying again");
    }
  }
}

/** Connects on a new transport each round: one that failed to connect is not used again. */
const connect = (client: Client) =>
  authorized(() => {
    transport = new StreamableHTTPClientTransport(new URL(url!), {
      fetch: fetchOnFreshConnection,
      authProvider: oauth,
    });
    return client.connect(transport, PATIENCE);
  });
//#endregion

//#region tour
/** The calls to make: the ones the scenario names in its context, else every listed tool with example arguments. */
function callsFor(tools: Tool[]): { name: string; arguments: Record<string, unknown> }[] {
  if (context.toolCalls) return context.toolCalls;
  // json-schema-2020-12-preservation: the echo tool takes the schema this client saw, to show nothing was dropped.
  const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
  return tools
    .filter((tool) => tool !== focal || !tools.some((other) => other.name === "json_schema_echo"))
    .map((tool) => ({
      name: tool.name,
      arguments:
        tool.name === "json_schema_echo" && focal
          ? { schema: focal.inputSchema }
          : exampleObject(tool.inputSchema as ObjectSchema),
    }));
}

async function tour(): Promise<void> {
  const modern = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION === MODERN;
  const client = new Client(
    { name: "learn-mcp-conformance-client", version: "0.1.0" },
    {
      capabilities: { elicitation: {}, sampling: {}, roots: {} },
      ...(modern ? { versionNegotiation: { mode: { pin: MODERN }, probe: { timeoutMs: PATIENCE.timeout } } } : {}),
    },
  );
  answerRequests(client);
  try {
    await connect(client);
    log(`connected (${client.getProtocolEra()} era, ${client.getNegotiatedProtocolVersion()})`);
    const { tools } = await authorized(() => client.listTools(undefined, PATIENCE));
    for (const call of callsFor(tools)) {
      // A refused call is the server's verdict to record, not a reason to skip the calls after it.
      const outcome = await authorized(() => client.callTool(call, PATIENCE)).then(
        (result) => (result.isError ? "an error result" : "a result"),
        (error: Error) => {
          const cause = error.cause && String((error.cause as { code?: string }).code ?? error.cause);
          return `refused: ${error.message}${cause ? ` (${cause})` : ""}`;
        },
      );
      log(`${call.name}: ${outcome}`);
    }
  } finally {
    await transport?.close();
  }
}
//#endregion

// Exit at once either way: a connection the transport keeps alive would otherwise hold the process until the suite's
// timeout, and the suite reads a timeout as a hang, not as the failure it was.
log("started");
tour().then(
  () => (log("done"), process.exit(0)),
  (error: Error) => {
    const cause = error.cause ? `\ncaused by: ${String((error.cause as Error).stack ?? error.cause)}` : "";
    log(`failed: ${error.stack ?? error.message}${cause}`);
    process.exit(1);
  },
);
