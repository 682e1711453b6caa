// Preloaded into every demo, so that it ends cleanly however it is stopped. A reader that stops early
// (`node steps/run.mjs 4 | head`) ends it quietly; a signal ends it through process.exit, which runs its exit handlers.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

// Without a handler Node dies at once on these, and "exit" handlers (a demo's temporary folders) never run. `on`, not
// `once`: once its listener is gone Node takes the signal's default action again, so a second signal (the runner
// signals the demo's group, then the demo) would end it in the middle of those handlers.
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
]) {
  process.on(signal, () => process.exit(status));
}
