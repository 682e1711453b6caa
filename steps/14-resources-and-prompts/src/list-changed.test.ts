import { SdkError, SdkErrorCode, type VersionNegotiationMode } from "@modelcontextprotocol/client";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listResources } from "./browse.ts";
import { describeOutcome } from "./content.ts";
import { watchResourceList } from "./list-changed.ts";
import { callTool, connect, type Connection } from "./sdk-client.ts";
import { sdkServer } from "./servers.ts";

vi.setConfig({ testTimeout: 30_000, hookTimeout: 60_000 });

// Long enough for a notification that is coming: on the wire it arrives before the tool's own answer.
const QUIET_MS = 1_000;
const MODERN = { pin: "2026-07-28" };
// A pinned probe that times out fails the connect; a loaded machine can take longer than the default 5 s to start one.
const PROBE_TIMEOUT_MS = 25_000;

let folder: string;
beforeAll(async () => (folder = await mkdtemp(join(tmpdir(), "learn-mcp-07-test-"))));
afterAll(() => rm(folder, { recursive: true, force: true }));

const addNote = async (server: Connection, name: string) =>
  describeOutcome(await callTool(server.client, "add_note", { name, text: `${name} text` }));

describe.each<[string, VersionNegotiationMode]>([["legacy", "legacy"], ["modern", MODERN]])("list_changed, %s era", (era, mode) => {
  let server: Connection;
  beforeAll(async () => (server = await connect(sdkServer(folder), mode, PROBE_TIMEOUT_MS)));
  afterAll(() => server?.close());

  it("arrives when add_note adds a resource, and resources/list then shows it", async () => {
    const watch = await watchResourceList(server.client);
    expect(watch.how).toMatch(era === "legacy" ? /unasked/ : /subscriptions\/listen acknowledged \{"resourcesListChanged":true\}/);
    const changed = watch.next(); // rejects after 5 s if the server never sends it
    expect(await addNote(server, "first")).toEqual(["result", '  text "Added note://first."']);
    await changed;
    expect(await listResources(server.client)).toBe("resources/list -> about://server, media://gradient.png, note://first");
    expect((await server.client.readResource({ uri: "note://first" })).contents).toMatchObject([{ text: "first text" }]);
    await watch.close();
  });

  it("does not arrive when the tool changes nothing", async () => {
    const watch = await watchResourceList(server.client);
    const changed = watch.next(QUIET_MS);
    expect(await addNote(server, "first")).toEqual(["tool error (isError: true)", '  text "note://first already exists."']);
    expect((await addNote(server, "../escape"))[0]).toBe("tool error (isError: true)"); // refused by the name's schema
    await expect(changed).rejects.toThrow(`no notifications/resources/list_changed within ${QUIET_MS} ms`);
    await watch.close();
  });
});

describe("the modern era without an open subscription", () => {
  let server: Connection;
  let heard = 0;
  beforeAll(async () => {
    server = await connect(sdkServer(folder), MODERN, PROBE_TIMEOUT_MS);
    server.client.setNotificationHandler("notifications/resources/list_changed", () => void (heard += 1));
  });
  afterAll(() => server?.close());

  it("hears nothing, though the list changed: the server had no stream to send it on", async () => {
    await addNote(server, "unheard");
    expect(await listResources(server.client)).toContain("note://unheard");
    await sleep(QUIET_MS);
    expect(heard).toBe(0);
  });

  it("hears nothing once the subscription is closed, after hearing while it was open", async () => {
    const watch = await watchResourceList(server.client);
    const changed = watch.next();
    await addNote(server, "heard");
    await changed;
    await watch.close();
    const after = watch.next(QUIET_MS);
    await addNote(server, "after-close");
    await expect(after).rejects.toThrow(/no notifications\/resources\/list_changed/);
  });
});

describe("the legacy era", () => {
  it("refuses subscriptions/listen in the client, before anything is sent", async () => {
    const server = await connect(sdkServer(folder), "legacy");
    try {
      const listening = server.client.listen({ resourcesListChanged: true });
      await expect(listening).rejects.toBeInstanceOf(SdkError);
      await expect(listening).rejects.toMatchObject({ code: SdkErrorCode.MethodNotSupportedByProtocolVersion });
    } finally {
      await server.close();
    }
  });
});
