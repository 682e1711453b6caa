// The signals that end a host from outside (Ctrl-C, kill, a closed terminal) are caught, so that it stops its servers
// and removes what it made before it exits. A signal that arrives while it stops changes nothing.
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const; // a shell's 128 + the signal's number
// Closing a server ends with SIGKILL within about 6 s; whatever else stopping waits for is given up after this.
export const STOP_DEADLINE_MS = 10_000;

/** From now on, the first SIGINT, SIGTERM or SIGHUP runs every function in the returned list (add to it as things
 * start), then exits with that signal's status, which runs the "exit" handlers; after `deadlineMs` at the latest. */
export function exitOnSignals(deadlineMs = STOP_DEADLINE_MS): (() => Promise<unknown>)[] {
  const before: (() => Promise<unknown>)[] = [];
  let stopping = false;
  for (const [signal, status] of Object.entries(SIGNAL_EXIT)) {
    process.on(signal, () => {
      // process.once would let a second Ctrl-C kill the host here and leave its servers running.
      if (stopping) return;
      stopping = true;
      setTimeout(() => {
        console.error(`still stopping ${deadlineMs} ms after ${signal}: exiting anyway`);
        process.exit(status);
      }, deadlineMs);
      void Promise.allSettled(before.map((stop) => stop())).finally(() => process.exit(status));
    });
  }
  return before;
}
