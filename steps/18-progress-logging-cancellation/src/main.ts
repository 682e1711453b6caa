// Demo: count_slowly in both eras at once, its progress drawn as a bar and its log printed, and a call that the
// client cancels after two steps; the server's log shows that it stopped there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { Client, VersionNegotiationMode } from "@modelcontextprotocol/client";
import { setTimeout as sleep } from "node:timers/promises";
import { describeOutcome } from "./content.ts";
import { progressBar, type ProgressBar } from "./progress-bar.ts";
import { sdkServer } from "./servers.ts";

console.log("count_slowly in both eras, on two servers at once\n");
// The SDKs load after the first line: loading them takes most of a second on a busy machine.
const { SdkError } = await import("@modelcontextprotocol/client");
const { STEP_MS } = await import("./count-slowly.ts");
const { receiveLogs } = await import("./logging.ts");
const { connect, describeConnection } = await import("./sdk-client.ts");

const workspace = mkdtempSync(path.join(tmpdir(), "learn-mcp-progress-logging-cancellation-"));
process.on("exit", () => rmSync(workspace, { recursive: true, force: true }));

//#region count
// The request names its own progressToken in _meta, and notifications/progress are routed by it. SDK 2.4's onprogress
// option would do both, but it drops an update that arrives in the same read as the result, such as the last one.
async function count(
  client: Client,
  bar: ProgressBar,
  to: number,
  _meta: Record<string, string>,
  cancelAfter?: number,
) {
  bar.print(
    `tools/call count_slowly {"to":${to}}${cancelAfter === undefined ? "" : `, cancelled after ${cancelAfter}`}`,
  );
  const progressToken = `count-to-${to}`; // unique among this connection's requests, one at a time
  const controller = new AbortController();
  client.setNotificationHandler("notifications/progress", ({ params }) => {
    if (params.progressToken !== progressToken) return;
    bar.update(params);
    if (params.progress === cancelAfter) controller.abort("the user pressed stop");
  });
  try {
    const result = await client.callTool(
      { name: "count_slowly", arguments: { to }, _meta: { ..._meta, progressToken } },
      { signal: controller.signal },
    );
    bar.print(["-> result", ...describeOutcome({ kind: "result", result }).slice(1)].join("\n"));
  } catch (error) {
    // SDK 2.4 rejects a cancelled request with the code it uses for timeouts; the signal says which it was.
    if (!controller.signal.aborted || !(error instanceof SdkError)) throw error;
    bar.print(`-> cancelled: SdkError ${error.code}: ${error.message}`);
    await sleep(2 * STEP_MS); // time for two more steps: none is drawn, because the server stopped
  }
}
//#endregion

//#region tour
type Count = [to: number, cancelAfter?: number];

async function visit(mode: VersionNegotiationMode, out: NodeJS.WritableStream, counts: Count[]): Promise<void> {
  const { client, stderr, close } = await connect(sdkServer(workspace), mode);
  const bar = progressBar(out);
  try {
    bar.print(`== ${describeConnection(client)}`);
    const _meta = await receiveLogs(client, "info", bar.print);
    for (const [to, cancelAfter] of counts) await count(client, bar, to, _meta, cancelAfter);
  } finally {
    await close();
    bar.print(`server's stderr:\n${stderr().trimEnd().replace(/^/gm, "  ")}\n`);
  }
}

// The eras run side by side, each on a server of its own; the modern era's lines are kept and printed second. Its
// connect starts the server twice (a probe, then the session), so it repeats only the count that is cancelled.
let kept = "";
const later = new Writable({ write: (chunk, _encoding, done) => ((kept += String(chunk)), done()) });
const visits = [visit("legacy", process.stdout, [[3], [10, 2]]), visit({ pin: "2026-07-28" }, later, [[10, 2]])];
await visits[0];
await visits[1];
process.stdout.write(kept);
//#endregion
