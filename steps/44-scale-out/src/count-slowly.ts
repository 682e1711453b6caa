// count_slowly: a tool that takes its time, to show what a long call needs. It reports progress when the request
// carries a progressToken, logs through notifications/message, and stops as soon as the client cancels the request.
import type { CallToolResult, McpServer, ServerContext } from "@modelcontextprotocol/server";
import { setTimeout as sleep } from "node:timers/promises";
import * as z from "zod";

export const STEP_MS = 250;

//#region count
async function countSlowly(to: number, ctx: ServerContext): Promise<CallToolResult> {
  const { signal, _meta, notify, log } = ctx.mcpReq;
  await log("info", `counting to ${to}`);
  for (let count = 1; count <= to; count++) {
    try {
      // The signal aborts when notifications/cancelled arrives for this request, or when the client goes away.
      await sleep(STEP_MS, undefined, { signal });
    } catch {
      console.error(`[server] count_slowly stopped after ${count - 1} of ${to}: ${String(signal.reason)}`);
      throw signal.reason;
    }
    await log("debug", `counted ${count}`);
    const progressToken = _meta?.progressToken;
    if (progressToken !== undefined) {
      await notify({
        method: "notifications/progress",
        params: { progressToken, progress: count, total: to, message: `counted ${count} of ${to}` },
      });
    }
  }
  await log("info", `counted to ${to}`);
  return { content: [{ type: "text", text: `Counted to ${to}.` }] };
}

export function registerCountSlowly(server: McpServer): void {
  server.registerTool(
    "count_slowly",
    {
      description:
        `Counts from 1 to \`to\`, one number every ${STEP_MS} ` + `ms, reporting progress and logging as it goes.`,
      inputSchema: z.strictObject({ to: z.number().int().min(1).max(100) }),
    },
    ({ to }, ctx) => countSlowly(to, ctx),
  );
}
//#endregion
