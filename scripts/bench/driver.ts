// One client in its own process, run as `driver.ts <client-kind> <server-kind> <folder>` with an IPC channel.
// Its own process, so that /proc shows the client's CPU apart from the bench's; it runs each command it is sent.
import { performance } from "node:perf_hooks";
import { createClient, type BenchClient } from "./clients.ts";
import { bigText, percentile, sha256 } from "./measure.ts";
import { serverSpec, type ClientKind, type ServerKind } from "./pairs.ts";

const [clientKind, serverKind, folder] = process.argv.slice(2) as [ClientKind, ServerKind, string];
const client: BenchClient = createClient(clientKind, serverSpec(serverKind, folder));
// Multi-byte on purpose, so that every small call also checks the decoding.
const SMALL = "héllo 世界";
// The big text of each size asked for, made once.
const bigTexts = new Map<number, { text: string; sha: string }>();
function bigOfSize(bytes: number) {
  if (!bigTexts.has(bytes)) {
    const text = bigText(bytes);
    bigTexts.set(bytes, { text, sha: sha256(text) });
  }
  return bigTexts.get(bytes)!;
}

//#region commands
async function start() {
  const started = performance.now();
  await client.start();
  return { coldMs: performance.now() - started, pid: process.pid, serverPid: client.serverPid() };
}

/** Small calls with one in flight: each round trip's time, in microseconds. */
async function latency({ calls }: { calls: number }) {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    if ((await client.echo(SMALL)) !== SMALL) throw new Error("a small echo came back changed");
    samples.push((performance.now() - started) * 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50Us: percentile(samples, 0.5), p99Us: percentile(samples, 0.99) };
}

/** `inflight` callers, each starting its next call as soon as its last one is answered, until both minimums are met. */
async function throughput({ inflight, minCalls, minMs }: { inflight: number; minCalls: number; minMs: number }) {
  let calls = 0;
  const started = performance.now();
  const caller = async () => {
    while (calls < minCalls || performance.now() - started < minMs) {
      if ((await client.echo(SMALL)) !== SMALL) throw new Error("a small echo came back changed");
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inflight }, caller));
  return { calls, ms: performance.now() - started };
}

/**
 * Echoes of a big text (10 MB in a full run): the time of each, and how many came back different (sha256) or not at
 * all.
 */
async function bigEchoes({ calls, bytes }: { calls: number; bytes: number }) {
  const sent = bigOfSize(bytes);
  const ms: number[] = [];
  let [corrupted, replaced, failed, error] = [0, 0, 0, ""];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    try {
      const text = await client.echo(sent.text);
      ms.push(performance.now() - started);
      if (sha256(text) === sent.sha) continue;
      // The text holds no U+FFFD, so each one that came back is a character a decoder broke.
      [corrupted, replaced] = [corrupted + 1, replaced + text.split("\uFFFD").length - 1];
    } catch (caught) {
      [failed, error] = [failed + 1, (caught as Error).message.slice(0, 300)];
    }
  }
  return { ms, corrupted, replaced, failed, error };
}
//#endregion

//#region serve
const commands: Record<string, (command: never) => Promise<object>> = { start, latency, throughput, big: bigEchoes };

// Commands come one at a time and each gets exactly one answer, a failure included.
let closing: Promise<void> | undefined;
const close = () => (closing ??= client.close());
process.on("message", async (command: { op: string }) => {
  if (command.op === "close") {
    await close();
    process.disconnect();
    return;
  }
  try {
    process.send!({ ok: true, ...(await commands[command.op](command as never)) });
  } catch (error) {
    process.send!({ ok: false, error: (error as Error).message });
  }
});
// The bench went away without saying goodbye: still stop the server.
process.on("disconnect", () => void close().catch(() => undefined));
process.send!({ ok: true, ready: true });
//#endregion
