import { defineConfig } from "vitest/config";

// One vitest run over the whole workspace: every step and the scripts are a project.
export default defineConfig({
  test: {
    projects: ["steps/*", "scripts"],
  },
});
