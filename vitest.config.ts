import { defineConfig } from "vitest/config";

// One vitest run over the whole workspace: every step folder, the runner and the scripts are each a project.
export default defineConfig({
  test: {
    projects: ["steps/[0-9][0-9]-*", "steps/runner", "scripts"],
  },
});
