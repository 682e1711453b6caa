// JSON-RPC 2.0: check one message, call its method, build the response, never throw.
// Every failure becomes an error response, so one bad message cannot stop the server.

export type JsonRpcId = string | number;
export type Method = (params: unknown) => unknown;
export type Methods = ReadonlyMap<string, Method>;
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId | null; error: { code: number; message: string } };

//#region codes
export const ParseError = -32700;
export const InvalidRequest = -32600;
export const MethodNotFound = -32601;
export const InvalidParams = -32602;
export const InternalError = -32603;
//#endregion

/** Thrown by a method to send this exact error back; anything else thrown becomes -32603. */
export class JsonRpcError extends Error {
  /** `code` is the JSON-RPC error code the answer carries; `message` its text. */
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A -32602 error whose message says what is wrong with the params. */
export const invalidParams = (why: string) => new JsonRpcError(InvalidParams, `Invalid params: ${why}`);

/** Whether a JSON value is an object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

//#region check-params
/** `params` as an object with no field outside `fields`; otherwise -32602 with `usage`. */
export function checkParams(params: unknown, fields: string[], usage: string): Record<string, unknown> {
  if (!isObject(params)) throw invalidParams(usage);
  // Own keys only, so "constructor" or "__proto__" count as unknown fields, not as something every object has.
  const unknown = Object.keys(params).find((key) => !fields.includes(key));
  if (unknown !== undefined) throw invalidParams(`unknown field ${JSON.stringify(unknown)}; ${usage}`);
  return params;
}
//#endregion

/** An error response with `code` and `message`, for the request with `id`. */
export function failure(id: JsonRpcId | null, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

//#region check-request
interface Request {
  id?: JsonRpcId;
  method: string;
  params?: unknown;
}

/** Returns the request, or the error response to send back instead. */
function checkRequest(message: unknown): Request | JsonRpcResponse {
  if (!isObject(message)) return failure(null, InvalidRequest, "Invalid Request: expected an object");
  const { id, method, params } = message;
  // null is refused too: it is the id of errors nobody can match, and MCP forbids it.
  if (Object.hasOwn(message, "id") && typeof id !== "string" && typeof id !== "number") {
    return failure(null, InvalidRequest, "Invalid Request: id must be a string or a number");
  }
  const replyTo = (id as JsonRpcId | undefined) ?? null;
  if (message.jsonrpc !== "2.0") return failure(replyTo, InvalidRequest, 'Invalid Request: jsonrpc must be "2.0"');
  if (typeof method !== "string") return failure(replyTo, InvalidRequest, "Invalid Request: method must be a string");
  if (params !== undefined && (typeof params !== "object" || params === null)) {
    return failure(replyTo, InvalidRequest, "Invalid Request: params must be an object or an array");
  }
  return Object.hasOwn(message, "id") ? { id: id as JsonRpcId, method, params } : { method, params };
}
//#endregion

//#region handle-message
/** Answers one message; a notification (no id) gets no answer, even when it fails. */
export async function handleMessage(message: unknown, methods: Methods): Promise<JsonRpcResponse | undefined> {
  const request = checkRequest(message);
  if ("jsonrpc" in request) return request;
  // A Map, not an object: a method named "toString" must not find Object.prototype.toString.
  const method = methods.get(request.method);
  if (request.id === undefined) {
    if (method) await call(method, request).catch(() => undefined);
    return undefined;
  }
  if (!method) return failure(request.id, MethodNotFound, `Method not found: ${request.method}`);
  try {
    return { jsonrpc: "2.0", id: request.id, result: await call(method, request) };
  } catch (error) {
    if (error instanceof JsonRpcError) return failure(request.id, error.code, error.message);
    return failure(request.id, InternalError, "Internal error");
  }
}

async function call(method: Method, request: Request): Promise<unknown> {
  try {
    return await method(request.params);
  } catch (error) {
    // Details (file paths, causes) are for the operator's log; the peer only learns the code.
    if (!(error instanceof JsonRpcError)) console.error(`[server] ${request.method} failed: ${error}`);
    throw error;
  }
}
//#endregion

//#region handle-line
/** Answers one line of input: a message, a batch (only if `batches` allows), or something that is not JSON at all. */
export async function handleLine(line: string, methods: Methods, batches: boolean): Promise<string | undefined> {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return JSON.stringify(failure(null, ParseError, "Parse error"));
  }
  if (Array.isArray(message) && !batches) {
    return JSON.stringify(
      failure(null, InvalidRequest, "Invalid Request: batches are not supported in this protocol version"),
    );
  }
  const response = Array.isArray(message) ? await handleBatch(message, methods) : await handleMessage(message, methods);
  return response === undefined ? undefined : JSON.stringify(response);
}

/** A batch gets one array of answers, notifications left out; nothing at all if none is owed. */
async function handleBatch(
  messages: unknown[],
  methods: Methods,
): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
  if (messages.length === 0) return failure(null, InvalidRequest, "Invalid Request: empty batch");
  const responses = await Promise.all(messages.map((message) => handleMessage(message, methods)));
  const answers = responses.filter((response) => response !== undefined);
  return answers.length === 0 ? undefined : answers;
}
//#endregion
