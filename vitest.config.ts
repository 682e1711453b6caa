import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { FIXTURE_PREFIX } from "./steps/runner/test/helpers.mjs";

// The tooling's tests (bench, interop, the runner's demos) are the longest files of the run: started last, they would
// run alone at the end while the other workers sit idle. Started first, the step tests fill the gaps around them. The
// step tests then go largest first, across steps: in step order the host and HTTP steps' tests, which mostly wait on
// timers and children, came together at the end and left the CPU idle.
class ToolingFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isStep = (file: TestSpecification) => /\/\d\d-/.test(file.project.name);
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    const steps = sorted.filter(isStep).sort((a, b) => size(b) - size(a));
    return [...sorted.filter((file) => !isStep(file)), ...steps];
  }
}

// Every step folder, the runner and the scripts are each a project, named as its package. `extends: true` gives each
// the settings below; a project found by a folder glob would get vitest's defaults instead (a 5 s test timeout).
const here = path.dirname(fileURLToPath(import.meta.url));
const steps = readdirSync(path.join(here, "steps")).filter((name) => /^\d\d-/.test(name));
const folders = [...steps.map((name) => `steps/${name}`), "steps/runner", "scripts"];
const project = (root: string) => ({
  extends: true,
  test: { root, name: JSON.parse(readFileSync(path.join(here, root, "package.json"), "utf8")).name as string },
});

export default defineConfig({
  test: {
    projects: folders.map(project),
    // A fixture folder of the runner's tests holds fixture steps with tests of their own; one left behind must not
    // have them collected as the runner's.
    exclude: [...configDefaults.exclude, `**/${FIXTURE_PREFIX}*/**`],
    // Most test time is spent waiting on child processes, not on the CPU: more files at once than cores pays off. On two
    // cores, measured with vmstat: three workers in step order left 96 s of CPU idle, four 40 s, four largest first 22 s.
    maxWorkers: 4,
    // Nearly every test starts a process; on a busy 2-core machine one can take seconds to start. A bound, not a speed
    // test.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    sequence: { sequencer: ToolingFirst },
  },
});
