// The fixtures only the 2026-07-28 era has: multi-round-trip tools and a prompt that ask the client for input with
// `input_required` results (SEP-2322), and the suite's diagnostic tools for stateless serving (SEP-2575).
import {
  createRequestStateCodec,
  fromJsonSchema,
  inputRequired,
  inputResponse,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequest,
  type JsonSchemaType,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { randomBytes } from "node:crypto";
import * as z from "zod";

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const noArguments = z.object({});

//#region request state
// requestState comes back from the client: it is sealed with an HMAC and names the tool that minted it, and
// guardToolCalls refuses a changed or misdirected one. One process serves every round, so a per-process key is enough.
type State = { tool: string; round: number; name?: string };
const codec = createRequestStateCodec<State>({ key: randomBytes(32) });

/** The verified state of this round, or undefined in the first round; guardToolCalls has refused a bad one already. */
async function readState(ctx: ServerContext): Promise<State | undefined> {
  const raw = ctx.mcpReq.requestState<string>();
  return raw === undefined ? undefined : codec.verify(raw, ctx);
}
//#endregion

//#region input requests
const askFor = (message: string, field: string) =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
  });
const askModel = (prompt: string, maxTokens: number) =>
  inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens });

/** The accepted elicitation's string field, or undefined: a missing, declined or malformed answer is asked again. */
function answered(ctx: ServerContext, key: string, field: string): string | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  const value = view.kind === "elicit" && view.action === "accept" ? view.content?.[field] : undefined;
  return typeof value === "string" ? value : undefined;
}
function sampled(ctx: ServerContext, key: string): string | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  if (view.kind !== "sampling") return undefined;
  const blocks = Array.isArray(view.result.content) ? view.result.content : [view.result.content];
  return blocks.map((block) => (block.type === "text" ? block.text : "")).join("");
}
function roots(ctx: ServerContext, key: string): string[] | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  return view.kind === "roots" ? view.roots.map((root) => root.uri) : undefined;
}
//#endregion

//#region one-round tools
function registerOneRoundTools(server: McpServer): void {
  server.registerTool(
    "test_input_required_result_elicitation",
    { description: "Asks the user's name.", inputSchema: noArguments },
    (_args, ctx) => {
      const name = answered(ctx, "user_name", "name");
      return name === undefined
        ? inputRequired({ inputRequests: { user_name: askFor("What is your name?", "name") } })
        : text(`Hello, ${name}!`);
    },
  );
  server.registerTool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model a question.", inputSchema: noArguments },
    (_args, ctx) => {
      const answer = sampled(ctx, "capital_question");
      if (answer === undefined)
        return inputRequired({ inputRequests: { capital_question: askModel("What is the capital of France?", 100) } });
      return text(`The model answered: ${answer}`);
    },
  );
  server.registerTool(
    "test_input_required_result_list_roots",
    { description: "Asks for the client's roots.", inputSchema: noArguments },
    (_args, ctx) => {
      const uris = roots(ctx, "client_roots");
      if (uris === undefined) return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
      return text(`Roots: ${uris.join(", ")}`);
    },
  );
  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "Asks only for what the client can give.", inputSchema: noArguments },
    (_args, ctx) => {
      const declared: ClientCapabilities = server.server.getClientCapabilities() ?? {};
      const inputRequests: Record<string, InputRequest> = {};
      if (declared.elicitation && answered(ctx, "user_name", "name") === undefined)
        inputRequests.user_name = askFor("What is your name?", "name");
      if (declared.sampling && sampled(ctx, "greeting") === undefined)
        inputRequests.greeting = askModel("Generate a greeting", 50);
      if (Object.keys(inputRequests).length > 0) return inputRequired({ inputRequests });
      return text("Nothing more to ask for.");
    },
  );
  // SEP-2575's probe: a tool that needs sampling; guardToolCalls answers -32021 for it when sampling is undeclared.
  server.registerTool(
    "test_missing_capability",
    { description: "Needs the sampling capability.", inputSchema: noArguments },
    (_args, ctx) => {
      const answer = sampled(ctx, "probe");
      return answer === undefined
        ? inputRequired({ inputRequests: { probe: askModel("Say hello", 20) } })
        : text(`Sampled: ${answer}`);
    },
  );
  // The elicitation travels inside an input_required result: the response stream never carries a request of its own.
  server.registerTool(
    "test_streaming_elicitation",
    { description: "Asks for confirmation in-band.", inputSchema: noArguments },
    (_args, ctx) => {
      const confirmed = answered(ctx, "confirm", "ok");
      return confirmed === undefined
        ? inputRequired({ inputRequests: { confirm: askFor("Please confirm", "ok") } })
        : text("Streaming complete");
    },
  );
  // SEP-2243: a parameter the client mirrors into an Mcp-Param-Region header, which the SDK checks against the body.
  const regionSchema = {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" } },
    required: ["region"],
  } as JsonSchemaType;
  server.registerTool(
    "test_region_header",
    {
      description: "Echoes a region sent in a header too.",
      inputSchema: fromJsonSchema<{ region: string }>(regionSchema),
    },
    ({ region }) => text(`Region: ${region}`),
  );
  // Logs on every call: the SDK must drop the line unless the request's _meta carries a log level.
  server.registerTool(
    "test_logging_tool",
    { description: "Logs one line, then answers.", inputSchema: noArguments },
    async (_args, ctx) => {
      await ctx.mcpReq.log("info", "Diagnostic trace logging activated");
      return text("Logging evaluated");
    },
  );
}
//#endregion

//#region guard
// McpServer turns whatever a tool callback throws into an isError result (only -32042 passes), so a tool cannot answer
// with a JSON-RPC error itself: these checks sit in front of the tools/call handler McpServer installed.
type CallHandler = (request: { params: { name: string } }, ctx: ServerContext) => Promise<CallToolResult>;
function guardToolCalls(server: McpServer): void {
  const installed = (
    server.server as unknown as { _getRequestHandler(method: string): CallHandler }
  )._getRequestHandler("tools/call");
  server.server.setRequestHandler("tools/call", async (request, ctx) => {
    if (request.params.name === "test_missing_capability" && !server.server.getClientCapabilities()?.sampling) {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { sampling: {} } });
    }
    const state = await readState(ctx).catch(() => null);
    if (state === null || (state !== undefined && state.tool !== request.params.name)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, "requestState failed its integrity check");
    }
    return installed(request, ctx);
  });
}
//#endregion

//#region stateful tools
function registerStatefulTools(server: McpServer): void {
  const confirm = () =>
    inputRequired.elicit({
      message: "Please confirm",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
  server.registerTool(
    "test_input_required_result_request_state",
    { description: "Round-trips requestState.", inputSchema: noArguments },
    async (_args, ctx) => {
      const tool = "test_input_required_result_request_state";
      const state = await readState(ctx);
      const view = inputResponse(ctx.mcpReq.inputResponses, "confirm");
      if (state?.round === 1 && view.kind === "elicit") return text(`state-ok: confirmation ${view.action}`);
      return inputRequired({
        inputRequests: { confirm: confirm() },
        requestState: await codec.mint({ tool, round: 1 }),
      });
    },
  );
  server.registerTool(
    "test_input_required_result_tampered_state",
    { description: "Refuses a changed requestState.", inputSchema: noArguments },
    async (_args, ctx) => {
      const tool = "test_input_required_result_tampered_state";
      if ((await readState(ctx)) !== undefined && inputResponse(ctx.mcpReq.inputResponses, "confirm").kind === "elicit")
        return text("state verified");
      return inputRequired({
        inputRequests: { confirm: confirm() },
        requestState: await codec.mint({ tool, round: 1 }),
      });
    },
  );
  server.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks for three inputs at once.", inputSchema: noArguments },
    async (_args, ctx) => {
      const tool = "test_input_required_result_multiple_inputs";
      const state = await readState(ctx);
      const [name, greeting, uris] = [
        answered(ctx, "user_name", "name"),
        sampled(ctx, "greeting"),
        roots(ctx, "client_roots"),
      ];
      if (state && name !== undefined && greeting !== undefined && uris !== undefined)
        return text(`${greeting} ${name}, with roots ${uris.join(", ")}`);
      const inputRequests = {
        user_name: askFor("What is your name?", "name"),
        greeting: askModel("Generate a greeting", 50),
        client_roots: inputRequired.listRoots(),
      };
      return inputRequired({ inputRequests, requestState: await codec.mint({ tool, round: 1 }) });
    },
  );
  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one round each.", inputSchema: noArguments },
    async (_args, ctx) => {
      const tool = "test_input_required_result_multi_round";
      const state = await readState(ctx);
      const name = state?.round === 1 ? answered(ctx, "step1", "name") : state?.name;
      const color = state?.round === 2 ? answered(ctx, "step2", "color") : undefined;
      if (name !== undefined && color !== undefined) return text(`Multi-round complete for ${name} who likes ${color}`);
      if (name !== undefined) {
        return inputRequired({
          inputRequests: { step2: askFor("Step 2: What is your favorite color?", "color") },
          requestState: await codec.mint({ tool, round: 2, name }),
        });
      }
      return inputRequired({
        inputRequests: { step1: askFor("Step 1: What is your name?", "name") },
        requestState: await codec.mint({ tool, round: 1 }),
      });
    },
  );
}
//#endregion

export function registerModernFixtures(server: McpServer): void {
  registerOneRoundTools(server);
  registerStatefulTools(server);
  guardToolCalls(server);
  server.registerPrompt(
    "test_input_required_result_prompt",
    { description: "A prompt that asks for its context first." },
    (ctx) => {
      const context = answered(ctx, "user_context", "context");
      if (context === undefined)
        return inputRequired({
          inputRequests: { user_context: askFor("What context should the prompt use?", "context") },
        });
      return {
        messages: [{ role: "user", content: { type: "text", text: `Answer with this context in mind: ${context}` } }],
      };
    },
  );
}
