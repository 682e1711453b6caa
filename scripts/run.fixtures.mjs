// Fixture steps for run.test.mjs, as { folder: { path: text } }, with the exact output each should produce.
// Kept apart from the tests so that each test reads as a few lines of intent.

const packageJson = (name, description) =>
  `{\n  "name": "@fixture/${name}",\n  "version": "1.0.0",\n  "description": "${description}",\n  "type": "module"\n}\n`;

const step = (name, files) => ({ "package.json": packageJson(name, "Fixture"), ...files });

const diffNew = {
  "src/main.ts": "const a = 1;\nconst b = 3;\nconsole.log(a + b);\n",
  "src/same.ts": "export const same = true;\n",
  "src/added.ts": "export const added = true;\n",
  "node_modules/ignored.js": "never part of a diff\n",
};

const diffPair = {
  "01-old": step("01-old", {
    "src/main.ts": "const a = 1;\nconst b = 2;\nconsole.log(a + b);\n",
    "src/same.ts": "export const same = true;\n",
    "src/gone.ts": "// going away\nexport const gone = 1;\n",
  }),
  "02-new": step("02-new", diffNew),
  "03-described": { ...diffNew, "package.json": packageJson("03-described", "Described") },
};

const diffPairExpected = `--- (new file)
+++ steps/02-new/src/added.ts
@@ -0,0 +1,1 @@
+export const added = true;
--- steps/01-old/src/gone.ts
+++ (removed)
@@ -1,2 +0,0 @@
-// going away
-export const gone = 1;
--- steps/01-old/src/main.ts
+++ steps/02-new/src/main.ts
@@ -1,3 +1,3 @@
 const a = 1;
-const b = 2;
+const b = 3;
 console.log(a + b);
`;

const diffPairStat = ` src/added.ts | +1 -0  (new)
 src/gone.ts  | +0 -2  (removed)
 src/main.ts  | +1 -1
 3 files changed, 2 insertions(+), 3 deletions(-)
`;

const describedExpected = `--- steps/02-new/package.json
+++ steps/03-described/package.json
@@ -1,6 +1,6 @@
 {
   "name": "@fixture/03-described",
   "version": "1.0.0",
-  "description": "Fixture",
+  "description": "Described",
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

export const FIXTURES = { diffPair, diffPairExpected, diffPairStat, describedExpected, fails, hang };
