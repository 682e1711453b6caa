// A file of step N as pieces the learner wrote (a kept body, a changed one's start, a helper, an import), each theirs
// or, once it no longer type-checks, the reference's; and the file's text for the pieces' current states.
import { declarationsOf, parse, tokensOf, ts } from "./blanks.mjs";
import { declarationsByName, extrasOf, importsOf } from "./mine.mjs";
import { applyEdits, blankEdits, previousBody } from "./texts.mjs";
import { isSource, listStepFiles, readStepFile } from "../shared/repo.mjs";

//#region pieces
/** A source file step N−1 and the learner both have, as pieces: each can be theirs or fall back to the reference. */
export function mergedFile(plan, mineDir, rel) {
  const { step, previous } = plan;
  const [after, before, mine] = [step.dir, previous.dir, mineDir].map((dir) => readStepFile(dir, rel));
  if (before === null || mine === null) return undefined;
  const file = parse(rel, after);
  const [theirs, earlier] = [mine, before].map((text) => declarationsByName(rel, text));
  const blanks = new Map(plan.blanks.filter((blank) => blank.file === rel).map((blank) => [blank.name, blank]));
  const at = { rel, mine: true, theirs: true };
  const pieces = [];
  for (const found of declarationsOf(file)) {
    const blank = blanks.get(found.name);
    const own = theirs.get(found.name);
    const body = own && previousBody(mineDir, { file: rel, name: found.name }, found, file);
    if (blank?.change === "changed") {
      // Without their version, the plan's start: step N−1's body where it fitted.
      const reference = blank.start === "previous" ? previousBody(previous.dir, blank, found, file) : undefined;
      if ((body ?? reference) === undefined) continue;
      // Their body as step N−1 wrote it: the plan already tried that one, and knows whether it fits.
      const old = earlier.get(found.name);
      const asWritten =
        body !== undefined && old !== undefined && tokensOf(own.body, own.file) === tokensOf(old.body, old.file);
      const fits = !asWritten || blank.start === "previous";
      pieces.push({ ...at, kind: "changed", blank, body: body ?? reference, theirs: body !== undefined, mine: fits });
    } else if (!blank && body !== undefined && body !== found.body.getText(file)) {
      // Their exercise wrote out an inferred return type; keeping it keeps the type callers see.
      const differs = tokensOf(own.body, own.file) !== tokensOf(found.body, file);
      const returnType = differs && !found.node.type && own.node.type ? own.node.type.getText(own.file) : undefined;
      pieces.push({ ...at, kind: "kept", name: found.name, found, body, returnType });
    }
  }
  const texts = { mine, before, after };
  const extras = extrasOf(rel, texts);
  const clashes = extras
    .filter((extra) => extra.clash)
    .map(
      ({ name }) =>
        `${rel}: your ${name} has the name of one step ${step.id} adds, so step ${step.id}'s takes its place.`,
    );
  pieces.push(...extras.filter((extra) => !extra.clash).map((extra) => ({ ...at, kind: "extra", ...extra })));
  pieces.push(...importsOf(rel, texts).map((binding) => ({ ...at, kind: "import", ...binding })));
  for (const piece of pieces) piece.note = noteOf(plan, piece);
  return { rel, after, file, blanks: [...blanks.values()], pieces, clashes };
}

/** The learner's own source files, in neither step N−1 nor step N. */
export function ownFiles({ step, previous }, mineDir) {
  const isOwn = (rel) => isSource(rel) && [step.dir, previous.dir].every((dir) => readStepFile(dir, rel) === null);
  const note = `your file no longer type-checks in step ${step.id}, so it is left out.`;
  return listStepFiles(mineDir)
    .filter(isOwn)
    .map((rel) => ({ rel, kind: "file", mine: true, theirs: true, text: readStepFile(mineDir, rel), note }));
}

/** What a piece says when it falls back: a comment in the file for declarations, a line of the report for the rest. */
function noteOf(plan, piece) {
  const { step, previous } = plan;
  if (piece.kind === "changed") return changedNote(plan, piece.blank, undefined, piece.theirs);
  const yours = `Your ${piece.name} from step ${previous.id} no longer type-checks here`;
  if (piece.kind === "kept") return `${yours}, so this is step ${step.id}'s.`;
  if (piece.kind === "extra") return `${yours}; kept as a comment.`;
  return `your import of ${piece.name} no longer type-checks in step ${step.id}, so it is left out.`;
}

/** The comment above a changed declaration, as the plan words it, naming whose version it starts from. */
function changedNote({ step, previous }, blank, body, theirs) {
  const version = theirs ? `your version from step ${previous.id}` : `step ${previous.id}'s version`;
  return body === undefined
    ? `Step ${step.id} changes ${blank.name}; ${version} no longer fits, so it starts blank.`
    : `Step ${step.id} changes ${blank.name}: below is ${version}.`;
}
//#endregion

//#region render
/** Step N's text of one merged file: blanks as the plan has them, pieces as their state says. */
export function render(plan, { after, file, blanks, pieces }) {
  const stepId = plan.step.id;
  const found = new Map(declarationsOf(file).map((declaration) => [declaration.name, declaration]));
  const changed = new Map(pieces.filter((piece) => piece.kind === "changed").map((piece) => [piece.blank.name, piece]));
  const edits = [];
  for (const blank of blanks) {
    const piece = changed.get(blank.name);
    const body = piece?.mine ? piece.body : undefined;
    const note = blank.change === "changed" ? changedNote(plan, blank, body, piece?.theirs) : undefined;
    edits.push(
      ...blankEdits(after, file, found.get(blank.name), { returnType: blank.returnType, body, stepId, blank, note }),
    );
  }
  for (const piece of pieces.filter((candidate) => candidate.kind === "kept")) {
    const reference = [piece.found.body.getText(file), undefined, piece.note];
    const [body, returnType, note] = piece.mine ? [piece.body, piece.returnType] : reference;
    edits.push(...blankEdits(after, file, piece.found, { returnType, body, stepId, blank: piece, note }));
  }
  return applyEdits(after, [...edits, ...insertions(after, pieces)]);
}

const IDENTIFIER = /[\p{L}_$][\p{L}\p{N}_$]*/gu;

/** The learner's extras at their anchors, in their order, and the imports their code still in the file uses. */
function insertions(after, pieces) {
  const theirCode = pieces
    .filter((piece) => piece.mine && piece.kind !== "import")
    .map((piece) => piece.body ?? piece.text);
  const used = new Set(theirCode.flatMap((code) => code.match(IDENTIFIER) ?? []));
  const lastImport = parse("imports.ts", after).statements.filter(ts.isImportDeclaration).at(-1);
  const groups = new Map();
  const add = (at, text) => groups.set(at, [...(groups.get(at) ?? []), text]);
  // Imports first: an extra anchored after the last import goes below the imports added there.
  const ordered = [
    ...pieces.filter((piece) => piece.kind === "import"),
    ...pieces.filter((piece) => piece.kind === "extra"),
  ];
  for (const piece of ordered) {
    // An import shows only while code of theirs in the file uses it; an extra that no longer fits, as a comment.
    if (piece.kind === "import") piece.shown = piece.mine && used.has(piece.name) ? piece.text : undefined;
    else piece.shown = piece.mine ? piece.text : commented(piece);
    if (piece.shown === undefined) continue;
    if (piece.kind === "import") add(lastImport?.end ?? 0, lastImport ? `\n${piece.shown}` : `${piece.shown}\n`);
    else add(piece.anchor, piece.first ? `\n${piece.shown}\n` : `\n\n${piece.shown}`);
  }
  return [...groups].map(([at, texts]) => ({ start: at, end: at, text: texts.join("") }));
}

/** An extra that no longer fits, kept where it was as a comment under its note. */
function commented(piece) {
  const indent = /^[ \t]*/.exec(piece.text)[0];
  const lines = piece.text.split("\n").map((line) => `${indent}// ${line.slice(indent.length)}`.trimEnd());
  return [`${indent}// ${piece.note}`, ...lines].join("\n");
}

/** Whether a type error lies in a piece, in the exercise's text of its file. */
export function holds(piece, error, texts) {
  const text = texts.get(piece.rel) ?? "";
  if (piece.kind === "file") return true;
  if (piece.kind === "import" || piece.kind === "extra") {
    const start = piece.shown === undefined ? -1 : text.indexOf(piece.shown);
    return start >= 0 && error.pos >= start && error.pos <= start + piece.shown.length;
  }
  const name = piece.blank?.name ?? piece.name;
  const found = declarationsOf(parse(piece.rel, text)).find((candidate) => candidate.name === name);
  return found !== undefined && error.pos >= found.outer.getFullStart() && error.pos <= found.outer.end;
}
//#endregion
