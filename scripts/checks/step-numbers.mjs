// A step's code names no other step by number: numbers change when a step is inserted (step:new), and a learner's
// copy of the code outlives the numbering. What a comment, header or string means by "step 06" is a role, the package
// name, or a link in the chapter. Tests are held to it too: a test's comment or name that says "chapter 16's server"
// is wrong as soon as a step is inserted before it, and renumbering rewrites no step source.
import { readStepFile } from "../../steps/runner/shared/repo.mjs";

const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
// "Step 18 demo", "chapter 03's client", "steps 24 to 27", and temporary folders or client names like "learn-mcp-23-".
const NUMBERED = [/\b(?:step|chapter)s? \d{1,2}\b/gi, /\blearn-mcp-\d{2}\b/g];

/** Each place in `text` that names a step by number: `{ line, text }`, 1-based. */
export function stepNumbers(text) {
  const found = [];
  text.split("\n").forEach((line, i) => {
    for (const pattern of NUMBERED)
      for (const match of line.matchAll(pattern)) found.push({ line: i + 1, text: match[0] });
  });
  return found;
}

/** An error for each step number in the step's code, its tests included. */
export function checkStepNumbers(step, problems) {
  for (const rel of step.files.filter((rel) => CODE.test(rel))) {
    for (const { line, text } of stepNumbers(readStepFile(step.dir, rel) ?? "")) {
      problems.push(
        `steps/${step.name}/${rel}:${line}: names a step by number ("${text}"); say what it is instead ` +
          `(a role, the package name, or a link in the chapter)`,
      );
    }
  }
}
