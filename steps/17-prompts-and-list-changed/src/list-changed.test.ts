// notifications/resources/list_changed against the real server, in both eras: when it comes, when it does not, and what
// each era needs before it comes. One connection per era; each test adds notes of its own names.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listResources, readResource } from "./browse.ts";
import { describeOutcome } from "./content.ts";
import { watchResourceList } from "./list-changed.ts";
import { callTool } from "./sdk-client.ts";
import { connect, type SdkConnection, type Era } from "./test/sdk.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 90_000 });

// Long enough for a notification that is coming: on the wire it arrives before the tool's own answer.
const QUIET_MS = 1_000;

describe.each<Era>(["legacy", "modern"])("list_changed, %s era", (era) => {
  const workspace = mkdtempSync(path.join(tmpdir(), "learn-mcp-test-"));
  let server: SdkConnection;
  let heard = 0;
  const addNote = async (name: string) =>
    describeOutcome(await callTool(server.client, "add_note", { name, text: `${name} text` }));

  beforeAll(async () => {
    server = await connect(workspace, era);
    server.client.setNotificationHandler("notifications/resources/list_changed", () => void (heard += 1));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it(
    era === "legacy"
      ? "arrives unasked, and listen() is refused before anything is sent"
      : "never arrives without a subscriptions/listen stream",
    async () => {
      await addNote("unasked");
      expect((await listResources(server.client))[0]).toContain("note://unasked");
      await sleep(QUIET_MS);
      expect(heard).toBe(era === "legacy" ? 1 : 0);
      if (era === "legacy") {
        const listening = server.client.listen({ resourcesListChanged: true });
        await expect(listening).rejects.toBeInstanceOf(SdkError);
        await expect(listening).rejects.toMatchObject({ code: SdkErrorCode.MethodNotSupportedByProtocolVersion });
      }
    },
  );

  it("arrives when add_note adds a resource, and resources/list then shows it", async () => {
    const watch = await watchResourceList(server.client);
    expect(watch.how).toMatch(
      era === "legacy" ? /unasked/ : /subscriptions\/listen acknowledged \{"resourcesListChanged":true\}/,
    );
    const changed = watch.next(); // rejects after 5 s if the server never sends it
    expect(await addNote("first")).toEqual(["result", '  text "Added note://first."']);
    await changed;
    expect(await listResources(server.client)).toEqual([
      "resources/list -> sample://notes.md (text/markdown), sample://gradient.png (image/png), note://unasked (text/plain), note://first (text/plain)",
      "resources/templates/list -> workspace://file/{+path} (text/plain), note://{name} (text/plain)",
    ]);
    expect(await readResource(server.client, "note://first")).toEqual([
      "result",
      "  resource note://first (text/plain), 10 bytes of text",
      '    "first text"',
    ]);
    await watch.close();
  });

  it("does not arrive when the tool changes nothing", async () => {
    const watch = await watchResourceList(server.client);
    const changed = watch.next(QUIET_MS);
    expect(await addNote("first")).toEqual(["tool error (isError: true)", '  text "note://first already exists."']);
    expect((await addNote("../escape"))[0]).toBe("tool error (isError: true)"); // refused by the name's pattern
    await expect(changed).rejects.toThrow(`no notifications/resources/list_changed within ${QUIET_MS} ms`);
    await watch.close();
  });

  it("stops arriving on a 2026-07-28 connection once the subscription is closed", async () => {
    const watch = await watchResourceList(server.client);
    await watch.close();
    const after = watch.next(QUIET_MS);
    await addNote("after-close");
    if (era === "legacy") await after;
    else await expect(after).rejects.toThrow(/no notifications\/resources\/list_changed/);
  });

  it("answers a note that does not exist as resource not found", async () => {
    expect(await readResource(server.client, "note://missing")).toEqual([
      "resource not found (-32602): Resource not found: note://missing",
    ]);
  });
});
