// Preloaded into every demo, so that it ends cleanly however it is stopped. A reader that stops early
// (`node steps/run.mjs 4 | head`) ends it quietly; a signal ends it through process.exit, which runs its exit handlers.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

// Without a handler Node dies at once on these, and "exit" handlers (a demo's temporary folders) never run. `on`, not
// `once`: with its last listener gone Node dies of the signal again, and the runner signals the group, then the demo.
for (const [signal, status] of [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
]) {
  process.on(signal, () => process.exit(status));
}
