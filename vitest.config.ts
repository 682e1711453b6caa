import { defineConfig } from "vitest/config";

// One vitest run over the whole workspace: every step folder, the runner and the scripts are each a project.
export default defineConfig({
  test: {
    projects: ["steps/[0-9][0-9]-*", "steps/runner", "scripts"],
    // Most test time is spent waiting on child processes, not on the CPU: more files at once than cores pays off.
    maxWorkers: 3,
  },
});
