import { defineConfig } from "vitest/config";

// One vitest run over the whole workspace: every step folder (not the runner) and the scripts are a project.
export default defineConfig({
  test: {
    projects: ["steps/[0-9][0-9]-*", "scripts"],
  },
});
