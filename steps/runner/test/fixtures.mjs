// Fixture steps for run.test.mjs, as { folder: { path: text } }, with the exact output each should produce.
// Kept apart from the tests so that each test reads as a few lines of intent.

const packageJson = (name, version = "1.0.0") =>
  `{\n  "name": "@fixture/${name}",\n  "version": "${version}",\n  "type": "module"\n}\n`;
const lessonJson = (title) => JSON.stringify({ title, changes: [] });

const step = (name, files) => ({
  "package.json": packageJson(name),
  "lesson.json": lessonJson(`Fixture ${name}`),
  ...files,
});

const diffNew = {
  "src/main.ts": "const a = 1;\nconst b = 3;\nconsole.log(a + b);\n",
  "src/same.ts": "export const same = true;\n",
  "src/added.ts": "export const added = true;\n",
  "src/added.test.ts": "test();\n",
  "node_modules/ignored.js": "never part of a diff\n",
};

const diffPair = {
  "01-old": step("01-old", {
    "src/main.ts": "const a = 1;\nconst b = 2;\nconsole.log(a + b);\n",
    "src/same.ts": "export const same = true;\n",
    "src/gone.ts": "// going away\nexport const gone = 1;\n",
  }),
  "02-new": step("02-new", diffNew),
  "03-described": {
    ...diffNew,
    "package.json": packageJson("03-described", "1.1.0"),
    "lesson.json": lessonJson("New title"),
  },
};

// Source before tests; a removed file is one line.
const diffPairSource = `--- (new file)
+++ steps/02-new/src/added.ts
@@ -0,0 +1,1 @@
+export const added = true;
removed src/gone.ts (2 lines)
--- steps/01-old/src/main.ts
+++ steps/02-new/src/main.ts
@@ -1,3 +1,3 @@
 const a = 1;
-const b = 2;
+const b = 3;
 console.log(a + b);
`;

const diffPairExpected = `${diffPairSource}--- (new file)
+++ steps/02-new/src/added.test.ts
@@ -0,0 +1,1 @@
+test();
`;

const diffPairStat = ` src/added.ts      | +1 -0  (new)
 src/gone.ts       | +0 -2  (removed)
 src/main.ts       | +1 -1
 src/added.test.ts | +1 -0  (new)
 4 files changed, 3 insertions(+), 3 deletions(-)
`;

// lesson.json is never shown, and the name line never counts as a change.
const describedExpected = `--- steps/02-new/package.json
+++ steps/03-described/package.json
@@ -1,5 +1,5 @@
 {
   "name": "@fixture/03-described",
-  "version": "1.0.0",
+  "version": "1.1.0",
   "type": "module"
 }
`;

const fails = step("01-fails", { "src/main.ts": 'console.log("about to fail");\nprocess.exitCode = 3;\n' });

// A demo whose child moves to its own process group (detached) and starts a grandchild that ignores SIGTERM.
const hangMain = `import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
const childPath = fileURLToPath(new URL("./child.mjs", import.meta.url));
const child = spawn(process.execPath, [childPath], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
child.stdout.setEncoding("utf8");
child.stdout.once("data", (pids: string) => console.log(\`PIDS \${process.pid} \${pids.trim()}\`));
setInterval(() => {}, 60_000);
`;

const hangChild = `import { spawn } from "node:child_process";
const code = "process.on('SIGTERM', () => {}); setInterval(() => {}, 60000); process.send?.('');";
const grandchild = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
setTimeout(() => process.stdout.write(\`\${process.pid} \${grandchild.pid}\\n\`), 300);
setInterval(() => {}, 60_000);
`;

const hang = step("01-hang", { "src/main.ts": hangMain, "src/child.mjs": hangChild });

// Writes far more than a pipe holds, so a reader that stops early makes its next write fail with EPIPE.
const chatty = step("01-chatty", { "src/main.ts": "for (let i = 0; i < 200_000; i++) console.log(`line ${i}`);\n" });

// A demo with a temporary folder it removes on exit and a child that sleeps: the runner must leave neither behind.
const tidyMain = `import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const folder = mkdtempSync(join(tmpdir(), "tidy-"));
process.on("exit", () => rmSync(folder, { recursive: true, force: true }));
const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { stdio: "ignore" });
console.log(\`READY \${process.pid} \${child.pid}\`);
setInterval(() => {}, 60_000);
`;
const tidy = step("01-tidy", { "src/main.ts": tidyMain });

// A demo whose exit handler takes a second, and says when it starts: a signal can arrive in the middle of it.
const slowTidyMain = `import { mkdtempSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const folder = mkdtempSync(join(tmpdir(), "tidy-"));
process.on("exit", () => {
  writeSync(1, "EXITING\\n");
  const end = Date.now() + 1000;
  while (Date.now() < end);
  rmSync(folder, { recursive: true, force: true });
});
console.log(\`READY \${process.pid}\`);
setInterval(() => {}, 60_000);
`;
const slowTidy = step("01-slow-tidy", { "src/main.ts": slowTidyMain });

// A demo that starts a server, which reads no stdin and ignores SIGTERM, and then fails before it stops it.
const crashMain = `import { spawn } from "node:child_process";
const code = "process.on('SIGTERM', () => {}); setInterval(() => {}, 60000);";
const server = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
console.log(\`SERVER \${server.pid}\`);
setTimeout(() => {
  throw new Error("the demo failed");
}, 300);
`;
const crash = step("01-crash", { "src/main.ts": crashMain });

export const FIXTURES = {
  chatty,
  crash,
  tidy,
  slowTidy,
  diffPair,
  diffPairSource,
  diffPairExpected,
  diffPairStat,
  describedExpected,
  fails,
  hang,
};
