// Finds the blanks of a step's exercise: every function, method, accessor, constructor or function-valued const with a
// body that the step adds or changes in a source file. Read with TypeScript's parser; compared token by token.
import { createRequire } from "node:module";
import path from "node:path";
import { REPO_ROOT, isTestFile, readStepFile } from "../shared/repo.mjs";

export const ts = createRequire(path.join(REPO_ROOT, "package.json"))("typescript");

/** Source files that may hold blanks: TypeScript the step runs, without tests, helpers, fixtures or the demo. */
export const mayHoldBlanks = (rel, given = []) =>
  /\.(ts|mts|cts)$/.test(rel) && !isTestFile(rel) && rel !== "src/main.ts" && !given.includes(rel);
// A given "file#name" is one declaration the exercise keeps as step N has it: a refactor no test could tell apart.

export const parse = (rel, text) => ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

//#region declarations
/** Every declaration with a body in a file, by a name unique in the file: `f`, `Class.method`, `get Class.x`. */
export function declarationsOf(file) {
  const found = [];
  const add = (name, node, body, outer = node) => body && found.push({ name, node, body, outer });
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) add(statement.name.text, statement, statement.body);
    if (ts.isClassDeclaration(statement) && statement.name) {
      for (const member of statement.members) {
        const name = ts.isConstructorDeclaration(member) ? "constructor" : member.name?.getText(file);
        const prefix = ts.isGetAccessor(member) ? "get " : ts.isSetAccessor(member) ? "set " : "";
        const isCode =
          ts.isMethodDeclaration(member) ||
          ts.isGetAccessor(member) ||
          ts.isSetAccessor(member) ||
          ts.isConstructorDeclaration(member);
        if (isCode) add(`${prefix}${statement.name.text}.${name}`, member, member.body);
      }
    }
    if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        const isFunction = value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value));
        if (isFunction && ts.isIdentifier(declaration.name)) add(declaration.name.text, value, value.body, statement);
      }
    }
  }
  return found;
}

/** The tokens of a node without comments and layout: a trailing comma before a closing bracket is layout too. */
export function tokensOf(node, file) {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, node.getText(file));
  const tokens = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan())
    tokens.push(scanner.getTokenText());
  return tokens.filter((token, i) => !(token === "," && [")", "]", "}"].includes(tokens[i + 1]))).join(" ");
}

/**
 * The first sentence of a declaration's doc comment, or "" when it has none. A sentence may wrap over several lines
 * (comments are held to 120 columns); it ends at a full stop before a capital, or with its paragraph.
 */
export function docLine(outer, file) {
  const ranges = ts.getLeadingCommentRanges(file.text, outer.getFullStart()) ?? [];
  const doc = ranges.filter((range) => file.text.startsWith("/**", range.pos)).at(-1);
  if (!doc) return "";
  const lines = file.text
    .slice(doc.pos + 3, doc.end - 2)
    .split("\n")
    .map((line) => line.replace(/^\s*\*?\s?/, "").trim());
  const first = lines.findIndex((line) => line !== "");
  if (first === -1) return "";
  const end = lines.findIndex((line, i) => i > first && (line === "" || line.startsWith("@")));
  const paragraph = lines.slice(first, end === -1 ? undefined : end).join(" ");
  return /^.*?\.(?=\s+[A-Z`])/.exec(paragraph)?.[0] ?? paragraph;
}
//#endregion

//#region blanks
/**
 * The blanks of step `dir` against the step before it (`prevDir`, or undefined for the first): file, name, 1-based
 * line, doc line, and "added" or "changed". `given` files hold none.
 */
export function findBlanks(dir, prevDir, files, given = []) {
  const blanks = [];
  for (const rel of files.filter((file) => mayHoldBlanks(file, given))) {
    const file = parse(rel, readStepFile(dir, rel));
    const beforeText = prevDir ? readStepFile(prevDir, rel) : null;
    const before = beforeText === null ? undefined : parse(rel, beforeText);
    const old = new Map(before ? declarationsOf(before).map((found) => [found.name, found]) : []);
    for (const found of declarationsOf(file)) {
      const previous = old.get(found.name);
      if (previous && tokensOf(previous.outer, before) === tokensOf(found.outer, file)) continue;
      // Only its signature changed: the exercise keeps step N's signature, so the body would start as it ends.
      if (previous && tokensOf(previous.body, before) === tokensOf(found.body, file)) continue;
      if (given.includes(`${rel}#${found.name}`)) continue;
      const line = file.getLineAndCharacterOfPosition(found.node.getStart(file)).line + 1;
      blanks.push({
        id: `${rel}#${found.name}`,
        file: rel,
        name: found.name,
        line,
        doc: docLine(found.outer, file),
        change: previous ? "changed" : "added",
      });
    }
  }
  return blanks;
}
//#endregion
