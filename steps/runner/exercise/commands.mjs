// The exercise's commands as the runner hands them off, each loading only its own modules.

/** Runs one exercise command on a step the runner has checked (a step after the first, its folder there if needed). */
export async function runExerciseCommand(mode, step, previous, { reset, watch, show }) {
  switch (mode) {
    case "--exercise":
      return (await import("./start.mjs")).startExercise(step, previous, { reset });
    case "--check":
      if (watch) return (await import("./watch.mjs")).watchExercise(step, previous);
      return (await (await import("./check.mjs")).checkExercise(step, previous)).status;
    case "--hint":
      return (await import("./hint.mjs")).hint(step, previous, { show });
    case "--solution":
      return (await import("./solution.mjs")).showSolution(step);
  }
  throw new Error(`unknown exercise command ${mode}`);
}
