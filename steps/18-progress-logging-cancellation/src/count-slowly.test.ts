// count_slowly against the real server, in both eras: progress by token, log levels as each era sets them, and
// cancellation that stops the server's work. One connection per era.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { LOG_LEVEL_META_KEY, SdkError, SdkErrorCode, type Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { STEP_MS } from "./count-slowly.ts";
import { receiveLogs } from "./logging.ts";
import { callText, connect, type SdkConnection, type Era } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

// Every notification of one kind that reaches the client, as its params.
function collect(client: Client, method: "notifications/progress" | "notifications/message") {
  const seen: Record<string, unknown>[] = [];
  client.setNotificationHandler(method, ({ params }) => void seen.push(params));
  return seen;
}
const count = (client: Client, to: number, _meta: Record<string, unknown> = {}, options = {}) =>
  client.callTool({ name: "count_slowly", arguments: { to }, _meta }, options);

describe.each<Era>(["legacy", "modern"])("count_slowly, %s era", (era) => {
  const workspace = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
  let server: SdkConnection;
  beforeAll(async () => (server = await connect(workspace, era)));
  afterAll(async () => {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it("reports progress for the request's token, one update a step, and none without a token", async () => {
    const progress = collect(server.client, "notifications/progress");
    expect(await count(server.client, 3, { progressToken: "p-1" })).toMatchObject({
      content: [{ type: "text", text: "Counted to 3." }],
    });
    expect(progress).toEqual(
      [1, 2, 3].map((n) => ({ progressToken: "p-1", progress: n, total: 3, message: `counted ${n} of 3` })),
    );
    progress.length = 0;
    await count(server.client, 2);
    expect(progress).toEqual([]);
  });

  it.each([0, 101, 2.5])("refuses to count to %s with an isError result", async (to) => {
    expect(await callText(server.client, "count_slowly", { to })).toMatchObject({
      isError: true,
      text: expect.stringMatching(/\bto\b/),
    });
  });

  it(
    era === "legacy"
      ? "logs every level until logging/setLevel, then from that level up"
      : "logs only when a request's _meta asks, from that level up",
    async () => {
      const logs = collect(server.client, "notifications/message");
      const levels = () => logs.splice(0).map((log) => `${log.level} ${log.data}`);
      await count(server.client, 1);
      expect(levels()).toEqual(era === "legacy" ? ["info counting to 1", "debug counted 1", "info counted to 1"] : []);
      await count(server.client, 1, { [LOG_LEVEL_META_KEY]: "debug" });
      // The 2025 era ignores the _meta key: with no level set, it sent every level anyway.
      expect(levels()).toEqual(["info counting to 1", "debug counted 1", "info counted to 1"]);
      const print: string[] = [];
      const _meta = await receiveLogs(server.client, "info", (line) => print.push(line));
      await count(server.client, 1, _meta);
      await count(server.client, 1, { ..._meta, [LOG_LEVEL_META_KEY]: "warning" });
      // At "warning" a 2026-07-28 request gets no info line; a 2025 connection keeps the level it set.
      const info = ["log info: counting to 1", "log info: counted to 1"];
      expect(print.slice(1)).toEqual(era === "legacy" ? [...info, ...info] : info);
    },
  );

  it("refuses logging/setLevel in the client on a 2026-07-28 connection, before anything is sent", async () => {
    const setting = server.client.setLoggingLevel("info");
    if (era === "legacy") return expect(await setting).toEqual({});
    await expect(setting).rejects.toMatchObject({ code: SdkErrorCode.MethodNotSupportedByProtocolVersion });
  });

  it("stops the server's work on a cancel: no progress after it, and the connection serves on", async () => {
    const controller = new AbortController();
    const progress: unknown[] = [];
    server.client.setNotificationHandler("notifications/progress", ({ params }) => {
      progress.push(params.progress);
      if (params.progress === 2) controller.abort("enough");
    });
    await expect(
      count(server.client, 20, { progressToken: "p-cancel" }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(SdkError);
    await sleep(4 * STEP_MS);
    expect(progress).toEqual([1, 2]);
    await vi.waitFor(() => expect(server.stderr()).toContain("[server] count_slowly stopped after 2 of 20: enough"));
    expect(await callText(server.client, "add", { a: 2, b: 40 })).toEqual({ text: "42", isError: false });
  });

  it("stops the server's work on a client timeout, which sends notifications/cancelled too", async () => {
    const timedOut = count(server.client, 20, {}, { timeout: STEP_MS * 1.5 });
    await expect(timedOut).rejects.toMatchObject({ code: SdkErrorCode.RequestTimeout });
    await vi.waitFor(() => expect(server.stderr()).toMatch(/count_slowly stopped after \d of 20: .*Request timed out/));
  });
});
