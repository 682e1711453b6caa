// The exercise's text of each source file: step N with each blank's body replaced by a throw, or by the previous step's
// body for a changed declaration where that still type-checks. Return types the checker inferred are written out.
import path from "node:path";
import { declarationsOf, parse, ts } from "./blanks.mjs";
import { readStepFile } from "../shared/repo.mjs";

// Blanks leave parameters and imports unread: these diagnostics are expected in an exercise.
const UNUSED = new Set([6133, 6138, 6192, 6196, 6198, 6199, 6205]);

//#region program
// Parsed files by compiler options, then by path and how they were parsed: a plan builds several programs over one
// step, docs sync and check:exercises build them over every step, and all read the same declarations in node_modules.
// A file whose text changed is parsed again. Planning all 46 exercises in one process: 65 s of CPU, 145 s without.
const parsedByOptions = new Map();
const parsedFor = ({ configFilePath, ...options }) => {
  const key = JSON.stringify(options);
  if (!parsedByOptions.has(key)) parsedByOptions.set(key, new Map());
  return parsedByOptions.get(key);
};

/**
 * A type-checker over step `dir` as tsconfig.json sets it up, reading `overlay` (rel -> text) in place of the files.
 */
export function checkerOver(dir, overlay = new Map()) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(dir, "tsconfig.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
  );
  const options = { ...config.options, noUnusedLocals: false, noUnusedParameters: false };
  const host = ts.createCompilerHost(options);
  const byPath = new Map([...overlay].map(([rel, text]) => [path.join(dir, rel), text]));
  const readFile = host.readFile;
  host.readFile = (file) => byPath.get(file) ?? readFile(file);
  host.fileExists = (
    (exists) => (file) =>
      byPath.has(file) || exists(file)
  )(host.fileExists);
  const parsed = parsedFor(options);
  host.getSourceFile = (file, version) => {
    const text = byPath.get(file) ?? readFile(file);
    if (text === undefined) return undefined;
    const key = `${file}\0${JSON.stringify(version)}`;
    const known = parsed.get(key);
    if (known?.text === text) return known.file;
    const sourceFile = ts.createSourceFile(file, text, version, true);
    parsed.set(key, { text, file: sourceFile });
    return sourceFile;
  };
  const program = ts.createProgram(config.fileNames, options, host);
  return { program, checker: program.getTypeChecker(), file: (rel) => program.getSourceFile(path.join(dir, rel)) };
}

/** Type errors of the program, unused names left out: { rel, pos, line, message }. */
export function typeErrors({ program }, dir) {
  const found = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].filter(
    (d) => !UNUSED.has(d.code),
  );
  return found.map((d) => ({
    rel: d.file ? path.relative(dir, d.file.fileName).split(path.sep).join("/") : "",
    pos: d.start ?? 0,
    line: d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0,
    message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
  }));
}
//#endregion

//#region return types
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseFullyQualifiedType;
// A type the file cannot name is written as import("/absolute/path").Name; with aliases allowed it may be nameable.
const ALIASED = FLAGS | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
const typeText = (checker, type, node) =>
  [FLAGS, ALIASED]
    .map((flags) => checker.typeToString(type, node, flags))
    .find((text) => !text.includes('import("/')) ?? checker.typeToString(type, node, FLAGS);

/** The return type a declaration has without its body, written out, or undefined when it names one or needs none. */
export function returnTypeText(checker, node) {
  if (node.type || ts.isConstructorDeclaration(node) || ts.isSetAccessor(node)) return undefined;
  const signature = checker.getSignatureFromDeclaration(node);
  if (!signature) return undefined;
  const predicate = checker.getTypePredicateOfSignature(signature);
  if (predicate) {
    const asserts =
      predicate.kind === ts.TypePredicateKind.AssertsIdentifier || predicate.kind === ts.TypePredicateKind.AssertsThis;
    const subject = predicate.parameterName ?? "this";
    const type = predicate.type ? ` is ${typeText(checker, predicate.type, node)}` : "";
    return `${asserts ? "asserts " : ""}${subject}${type}`;
  }
  return typeText(checker, checker.getReturnTypeOfSignature(signature), node);
}
//#endregion

//#region edits
const indentOf = (text, pos) => /^[ \t]*/.exec(text.slice(text.lastIndexOf("\n", pos - 1) + 1))[0];

/** The statement a blank's body becomes: it names the step and what the blank is for. */
export const throwLine = (stepId, blank) =>
  `throw new ` +
  `Error(${JSON.stringify(`${blank.name}: not written yet (step ${stepId})${blank.doc ? ` — ${blank.doc}` : ""}`)});`;

/**
 * The edits that turn step N's declaration `found` into its exercise form: `body` is the replacement body text (a block
 * or an expression), undefined for a throw. A constructor keeps its super(…) call.
 */
export function blankEdits(text, file, found, { returnType, body, stepId, blank, note }) {
  const { node } = found;
  const edits = [];
  const indent = indentOf(text, node.getStart(file));
  if (returnType) {
    const close =
      node.parameters.hasTrailingComma || node.parameters.length > 0 ? node.parameters.end : node.parameters.pos;
    const paren = text.indexOf(")", close);
    const bare =
      ts.isArrowFunction(node) &&
      text[node.parameters.pos - 1] !== "(" &&
      text[node.getStart(file)] !== "(" &&
      node.parameters.length === 1;
    if (bare)
      edits.push({
        start: node.parameters.pos,
        end: node.parameters.end,
        text: `(${text.slice(node.parameters.pos, node.parameters.end).trim()})`,
      });
    edits.push(
      bare
        ? { start: node.parameters.end, end: node.parameters.end, text: `: ${returnType}` }
        : { start: paren + 1, end: paren + 1, text: `: ${returnType}` },
    );
  }
  let replacement = body;
  if (replacement === undefined) {
    // A constructor keeps its super(…) call, and the statements before it that compute its arguments.
    const statements = ts.isConstructorDeclaration(node) ? node.body.statements : [];
    const upTo = statements.findIndex(isSuperCall);
    const kept = statements
      .slice(0, upTo + 1)
      .map((statement) => `${indent}  ${text.slice(statement.getStart(file), statement.end)}\n`)
      .join("");
    replacement = `{\n${kept}${indent}  ${throwLine(stepId, blank)}\n${indent}}`;
  }
  // An arrow whose body is an expression on the next line gets its block right after "=>", where a block starts.
  const arrowBlock = body === undefined && ts.isArrowFunction(node) && !ts.isBlock(found.body);
  const start = arrowBlock ? node.equalsGreaterThanToken.end : found.body.getStart(file);
  edits.push({ start, end: found.body.end, text: arrowBlock ? ` ${replacement}` : replacement });
  if (note) {
    const lineStart =
      text.lastIndexOf("\n", found.outer.getFullStart() + leadingBlank(text, found.outer.getFullStart())) + 1;
    edits.push({ start: lineStart, end: lineStart, text: `${indent}// ${note}\n` });
  }
  return edits;
}

const isSuperCall = (statement) =>
  ts.isExpressionStatement(statement) &&
  ts.isCallExpression(statement.expression) &&
  statement.expression.expression.kind === ts.SyntaxKind.SuperKeyword;

// The full start of a node includes the blank lines before it: the note goes on the line of its first comment or token.
const leadingBlank = (text, pos) => /^\s*/.exec(text.slice(pos))[0].length;

export function applyEdits(text, edits) {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}
//#endregion

//#region previous bodies
/** A changed declaration's body as step N−1 had it, re-indented to step N's place; undefined when the kinds differ. */
export function previousBody(prevDir, blank, found, file) {
  const oldText = readStepFile(prevDir, blank.file);
  const before = parse(blank.file, oldText);
  const old = declarationsOf(before).find((candidate) => candidate.name === blank.name);
  if (!old || ts.isBlock(old.body) !== ts.isBlock(found.body)) return undefined;
  const from = indentOf(oldText, old.node.getStart(before));
  const to = indentOf(file.text, found.node.getStart(file));
  return old.body
    .getText(before)
    .split("\n")
    .map((line, i) => (i > 0 && line.startsWith(from) ? to + line.slice(from.length) : line))
    .join("\n");
}
//#endregion
