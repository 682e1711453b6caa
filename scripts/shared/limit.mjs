// A cap on how many tasks run at once, for the scripts that start many processes on a machine with few cores.
// Tasks start in the order they were given, each as soon as a slot is free; a task's failure is its caller's alone.

/** `limit(task)` runs the async `task` once fewer than `max` run, and settles as it does; `idle()` resolves once no
 * task is waiting for a slot. */
export function createLimit(max) {
  let running = 0;
  const waiting = [];
  const idlers = [];
  const next = () => {
    while (running < max && waiting.length > 0) {
      const { task, resolve, reject } = waiting.shift();
      running++;
      // Started through a promise: a task that throws before its first await rejects instead of stopping next().
      Promise.resolve()
        .then(task)
        .then(resolve, reject)
        .finally(() => {
          running--;
          next();
        });
    }
    if (waiting.length === 0) idlers.splice(0).forEach((resolve) => resolve());
  };
  const limit = (task) => new Promise((resolve, reject) => (waiting.push({ task, resolve, reject }), next()));
  limit.idle = () => (waiting.length === 0 ? Promise.resolve() : new Promise((resolve) => idlers.push(resolve)));
  return limit;
}
