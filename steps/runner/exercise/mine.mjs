// What a learner's file holds beyond the reference: declarations and top-level statements of their own, and the
// imports those need. Matched by name, so a renamed declaration is one removed and one of their own added.
import { declarationsOf, parse, ts } from "./blanks.mjs";

/** The names a top-level statement binds: a function, class, type, const, or an import's local names. */
export function namesOf(statement) {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    const named = !bindings
      ? []
      : ts.isNamespaceImport(bindings)
        ? [bindings.name]
        : bindings.elements.map((one) => one.name);
    return [clause?.name, ...named].filter(Boolean).map((name) => name.text);
  }
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((declaration) => bindingNames(declaration.name));
  }
  return statement.name && ts.isIdentifier(statement.name) ? [statement.name.text] : [];
}

const bindingNames = (name) =>
  ts.isIdentifier(name)
    ? [name.text]
    : name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));

/** A class member's name as declarationsOf spells it after the class: `constructor`, `get x`, `#x`, `field`. */
function memberKey(member, file) {
  if (ts.isConstructorDeclaration(member)) return "constructor";
  if (!member.name) return undefined;
  const prefix = ts.isGetAccessor(member) ? "get " : ts.isSetAccessor(member) ? "set " : "";
  return `${prefix}${member.name.getText(file)}`;
}

/** A statement's text with the comments above it, from its first comment or token. */
const textWithComments = (node, file) => file.text.slice(node.getFullStart(), node.end).replace(/^\s*\n/, "");

/**
 * The learner's own top-level statements and class members: those whose names neither step N−1's reference nor step
 * N's binds. Each comes with `anchor`, the position in step N's text it goes after (the nearest statement before it
 * in their file that step N also has; else after step N's imports; else the end of the file). One whose name step N
 * binds anew comes as `{ name, clash: true }`: step N's takes its place.
 */
export function extrasOf(rel, { mine, before, after }) {
  const [own, old, now] = [mine, before, after].map((text) => parse(rel, text));
  const oldNames = new Set(old.statements.flatMap(namesOf));
  const nowByName = new Map(now.statements.flatMap((statement) => namesOf(statement).map((name) => [name, statement])));
  const imports = now.statements.filter(ts.isImportDeclaration);
  const fallback = imports.length > 0 ? imports.at(-1).end : now.text.trimEnd().length;
  const extras = [];
  own.statements.forEach((statement, i) => {
    const names = namesOf(statement);
    if (ts.isClassDeclaration(statement) && statement.name) extras.push(...memberExtras(statement, own, old, now));
    if (ts.isImportDeclaration(statement) || names.length === 0 || names.some((name) => oldNames.has(name))) return;
    if (names.some((name) => nowByName.has(name))) return void extras.push({ name: names.join(", "), clash: true });
    const earlier = own.statements.slice(0, i).reverse();
    const anchor = earlier
      .map((other) =>
        namesOf(other)
          .map((name) => nowByName.get(name))
          .find(Boolean),
      )
      .find(Boolean);
    extras.push({ name: names.join(", "), text: textWithComments(statement, own), anchor: anchor?.end ?? fallback });
  });
  return extras;
}

/** Members the learner added to a class both step N−1 and step N have, anchored after the member before them. */
function memberExtras(mineClass, own, old, now) {
  const isIt = (statement) => ts.isClassDeclaration(statement) && statement.name?.text === mineClass.name.text;
  const find = (file) => file.statements.find(isIt);
  const [oldClass, nowClass] = [find(old), find(now)];
  if (!oldClass || !nowClass) return [];
  const oldKeys = new Set(oldClass.members.map((member) => memberKey(member, old)));
  const nowByKey = new Map(nowClass.members.map((member) => [memberKey(member, now), member]));
  const extras = [];
  mineClass.members.forEach((member, i) => {
    const key = memberKey(member, own);
    if (key === undefined || oldKeys.has(key)) return;
    const accessor = /^[gs]et /.exec(key)?.[0] ?? "";
    const name = `${accessor}${mineClass.name.text}.${key.slice(accessor.length)}`;
    if (nowByKey.has(key)) return void extras.push({ name, clash: true });
    const earlier = mineClass.members.slice(0, i).reverse();
    const anchor = earlier.map((other) => nowByKey.get(memberKey(other, own))).find(Boolean);
    const start = anchor?.end ?? nowClass.members.pos;
    extras.push({ name, text: textWithComments(member, own), anchor: start, first: anchor === undefined });
  });
  return extras;
}

/** The learner's import bindings step N's file does not bind: { name, text }, one import statement each. */
export function importsOf(rel, { mine, after }) {
  const [own, now] = [mine, after].map((text) => parse(rel, text));
  const bound = new Set(now.statements.flatMap(namesOf));
  return own.statements.filter(ts.isImportDeclaration).flatMap((statement) => {
    const clause = statement.importClause;
    const from = statement.moduleSpecifier.getText(own);
    const typeOnly = clause?.isTypeOnly ? "type " : "";
    const bindings = clause?.namedBindings;
    const found = [];
    if (clause?.name)
      found.push({ name: clause.name.text, text: `import ${typeOnly}${clause.name.text} from ${from};` });
    if (bindings && ts.isNamespaceImport(bindings)) {
      found.push({ name: bindings.name.text, text: `import ${typeOnly}* as ${bindings.name.text} from ${from};` });
    }
    for (const element of bindings && ts.isNamedImports(bindings) ? bindings.elements : []) {
      found.push({ name: element.name.text, text: `import ${typeOnly}{ ${element.getText(own)} } from ${from};` });
    }
    return found.filter((binding) => !bound.has(binding.name));
  });
}

/** Declarations by name, with the file they were read from. */
export const declarationsByName = (rel, text) => {
  const file = parse(rel, text);
  return new Map(declarationsOf(file).map((found) => [found.name, { ...found, file }]));
};
