// Tool names the way a model API accepts them: `mcp__<server>__<tool>`, letters, digits, `_` and `-`, at most 64.
// A name is only a label: calls are routed through the table built here, never by splitting a name on "__".
export const MAX_NAME_LENGTH = 64;

export interface Route {
  name: string;
  server: string;
  tool: string;
}

//#region qualify
/** `mcp__<server>__<tool>`, with every other character turned into `_`, cut to 64 characters. */
export function qualifiedName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, MAX_NAME_LENGTH);
}

// Plain code-unit order, not localeCompare: the same names must come out on every machine.
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One unique name per tool. Names that collide are all kept: in server then tool order, later ones get _2, _3, …
 * A name once given stays with its tool (`given` remembers it, server and tool → name): a tool listed later never
 * takes a name given out before, even one whose tool is gone, so a name cannot move to another server. */
export function assignNames(
  tools: { server: string; tool: string }[],
  warn: (line: string) => void = () => {},
  given = new Map<string, string>(),
): Route[] {
  const sorted = [...tools].sort((a, b) => byCodeUnit(a.server, b.server) || byCodeUnit(a.tool, b.tool));
  const taken = new Set(given.values());
  return sorted.map(({ server, tool }) => {
    const kept = given.get(`${server}\0${tool}`);
    if (kept !== undefined) return { name: kept, server, tool };
    const base = qualifiedName(server, tool);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = base.slice(0, MAX_NAME_LENGTH - `_${n}`.length) + `_${n}`;
    if (name !== base) warn(`tool "${tool}" of server "${server}" is offered as ${name}: ${base} is taken`);
    taken.add(name);
    given.set(`${server}\0${tool}`, name);
    return { name, server, tool };
  });
}

/** Qualified name → the server, the tool's original name and its definition, for every tool of `servers`. */
export function routeTable<T extends { name: string }>(
  servers: { name: string; tools: T[] }[],
  warn?: (line: string) => void,
  given?: Map<string, string>,
) {
  const listed = servers.flatMap((server) =>
    server.tools.map((definition) => ({ server: server.name, tool: definition.name, definition })),
  );
  const definitions = new Map(listed.map((item) => [`${item.server}\0${item.tool}`, item.definition]));
  return new Map(
    assignNames(listed, warn, given).map((route) => [
      route.name,
      { ...route, definition: definitions.get(`${route.server}\0${route.tool}`)! },
    ]),
  );
}
//#endregion
