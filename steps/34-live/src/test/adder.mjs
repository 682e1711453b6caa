// Test server, plain Node and JSON lines: one tool, add, that answers a + b + FIXTURE_ADD_BIAS (0 when unset), so a
// test can make a server give a wrong sum. Arguments that are not two numbers get an error result.
import { createInterface } from "node:readline";

const bias = Number(process.env.FIXTURE_ADD_BIAS ?? 0);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const add = {
  name: "add",
  description: "Adds two numbers.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
};

function result(method, params = {}) {
  if (method === "initialize")
    return {
      protocolVersion: params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "adder", version: "0.1.0" },
    };
  if (method === "tools/list") return { tools: [add] };
  if (method !== "tools/call") return undefined;
  console.error(`called ${params.name} ${JSON.stringify(params.arguments)}`); // so a test can tell a call never came
  const { a, b } = params.arguments ?? {};
  if (params.name !== "add") return { content: [{ type: "text", text: `no tool ${params.name}` }], isError: true };
  if (typeof a !== "number" || typeof b !== "number")
    return { content: [{ type: "text", text: "a and b must be numbers" }], isError: true };
  return { content: [{ type: "text", text: String(a + b + bias) }] };
}

// Whether the host passed its own API key on to this server: it must not.
console.error(`ANTHROPIC_API_KEY is ${process.env.ANTHROPIC_API_KEY === undefined ? "not set" : "set"} here`);
for await (const line of createInterface({ input: process.stdin })) {
  const { id, method, params } = JSON.parse(line);
  if (id === undefined) continue; // a notification
  const answer = result(method, params);
  send(answer === undefined ? { id, error: { code: -32601, message: `no method ${method}` } } : { id, result: answer });
}
