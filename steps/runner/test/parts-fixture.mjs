// Fixture steps for parts.test.mjs: two parts of two steps each; the first step of the second part restores a file,
// names an earlier program by its role, drops one file and gives another.

const packageJson = (name) => `{\n  "name": "@fixture/${name}",\n  "type": "module"\n}\n`;
const step = (name, part, files, extra = {}) => ({
  "package.json": packageJson(name),
  "lesson.json": JSON.stringify({ title: `Fixture ${name}`, part, changes: [], ...extra }),
  ...files,
});

const bar = "// The bar: drawn once, restored later.\nexport const bar = 1;\nexport const baz = 2;\n";
const kept = "#!/usr/bin/env node\n// Kept as it is in every step.\nexport {};\n";

// The role table beside the fixture steps: one role the third step names, one it does not.
export const PARTS_ROLES = '{ "the first demo": "01-first/src/main.ts", "an unused one": "02-second/src/main.ts" }\n';

export const PARTS = {
  "01-first": step("01-first", "one", {
    "src/main.ts": "// The first demo.\nconsole.log(1);\n",
    "src/bar.ts": bar,
    "src/kept.ts": kept,
    "src/gone.ts": "// Goes in the second part.\nexport {};\n",
  }),
  "02-second": step("02-second", "one", {
    "src/main.ts": "// The second demo.\nconsole.log(2);\n",
    "src/kept.ts": kept,
    "src/gone.ts": "// Goes in the second part.\nexport {};\n",
  }),
  "03-third": step(
    "03-third",
    "two",
    {
      "src/main.ts": '// The third demo: starts the first by role.\nconst role = "the first demo";\n',
      "src/bar.ts": bar,
      "src/kept.ts": kept,
      "src/new.ts": "export const fresh = true;\n",
      "src/new.test.ts": "// The new file's test.\ntest();\n",
    },
    { given: ["src/bar.ts", "src/main.ts#role"] },
  ),
  "04-fourth": step("04-fourth", "two", {
    "src/main.ts": '// The third demo: starts the first by role.\nconst role = "the first demo";\n',
  }),
};

export const PARTS_LIST = `Part 1, one (steps 01-02)
  01  Fixture 01-first
  02  Fixture 02-second

Part 2, two (steps 03-04)
  03  Fixture 03-third
  04  Fixture 04-fourth
`;

const OPENING =
  'Step 03 opens the part "two": it starts from step 02, the end of "one", and removes 1 of its 4 files; ' +
  'it starts "the first demo" (step 01) as an outside program.';

// The opening line first; the restored file is one line, where its whole text would otherwise be.
export const PARTS_DIFF = `${OPENING}
restored src/bar.ts from step 01 (3 lines)
removed src/gone.ts (2 lines)
--- steps/02-second/src/main.ts
+++ steps/03-third/src/main.ts
@@ -1,2 +1,2 @@
-// The second demo.
-console.log(2);
+// The third demo: starts the first by role.
+const role = "the first demo";
--- (new file)
+++ steps/03-third/src/new.ts
@@ -0,0 +1,1 @@
+export const fresh = true;
--- (new file)
+++ steps/03-third/src/new.test.ts
@@ -0,0 +1,2 @@
+// The new file's test.
+test();
`;

export const PARTS_STAT = `${OPENING}
 src/bar.ts      | +3 -0  (restored from step 01)
 src/gone.ts     | +0 -2  (removed)
 src/main.ts     | +2 -2
 src/new.ts      | +1 -0  (new)
 src/new.test.ts | +2 -0  (new)
 5 files changed, 8 insertions(+), 4 deletions(-)
`;

export const PARTS_MAP = `same                          package.json
restored from step 01, given  src/bar.ts       The bar: drawn once, restored later.
removed                       src/gone.ts      Goes in the second part.
same                          src/kept.ts      Kept as it is in every step.
changed, given #role          src/main.ts      The third demo: starts the first by role.
new                           src/new.ts
new                           src/new.test.ts  The new file's test.
`;
