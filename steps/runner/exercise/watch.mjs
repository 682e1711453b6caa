// `N --check --watch`: checks again whenever the learner saves a file under src/, until Ctrl-C. Saves are gathered
// for a moment (an editor writes a file in several steps), and a folder whose content did not change is not re-checked.
import { watch } from "node:fs";
import path from "node:path";
import { installCleanup } from "./cleanup.mjs";
import { checkExercise } from "./check.mjs";
import { folderDigest, folderOf, shown } from "./state.mjs";

const SETTLE_MS = 300;

export async function watchExercise(step, previous) {
  installCleanup();
  const folder = folderOf(step);
  let checked;
  let running = false;
  let pending = false;
  let timer;
  const check = async () => {
    const digest = folderDigest(folder);
    if (digest === checked) return;
    running = true;
    await checkExercise(step, previous);
    checked = digest;
    running = false;
    console.log(`\nWatching ${shown(path.join(folder, "src"))}/ for changes; Ctrl-C to stop.`);
    if (pending) {
      pending = false;
      await check();
    }
  };
  watch(path.join(folder, "src"), { recursive: true }, () => {
    if (running) pending = true;
    else {
      clearTimeout(timer);
      timer = setTimeout(check, SETTLE_MS);
    }
  });
  await check();
  // The watcher keeps the process alive; a signal ends it, through the cleanup's handlers.
  return new Promise(() => {});
}
