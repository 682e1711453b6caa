// Preloaded into every demo: a reader that stops early (`node steps/run.mjs 4 | head`) ends the demo quietly,
// the way it ends a shell tool, instead of with an EPIPE stack trace. Any other stdout error is still thrown.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});
