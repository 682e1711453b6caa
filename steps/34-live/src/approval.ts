// Every tool call needs the user's approval, as the MCP specification asks of hosts. A call whose server and tool match
// an --allow pattern runs; any other is put to the user as y/n when there is a terminal, and refused when there is
// none.
import { createInterface } from "node:readline/promises";
import type { Route } from "./names.ts";
import { printable } from "./printable.ts";

export interface Verdict {
  allowed: boolean;
  why: string;
}
export type Approve = (route: Route, input: unknown) => Promise<Verdict>;
export type Ask = (question: string) => Promise<string>;

/** A glob over tool names: `*` stands for any characters, `?` for one, everything else for itself. */
export function globToRegExp(glob: string): RegExp {
  const pattern = [...glob]
    .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${pattern}$`);
}

/**
 * Whether `glob` allows the tool a name routes to: `*` allows every tool, `mcp__<server>__<tool>` (globs each, `*`
 * never reaching across the `__` between them) the tools of the servers it names, whatever their names were made
 * into.
 */
export function allows(glob: string, { name, server, tool }: Route): boolean {
  if (glob === "*" || glob === name) return true;
  const rest = glob.startsWith("mcp__") ? glob.slice("mcp__".length) : "";
  // A server's own name may hold "__": try each "__" as the one between server and tool.
  for (let at = rest.indexOf("__"); at !== -1; at = rest.indexOf("__", at + 1)) {
    if (globToRegExp(rest.slice(0, at)).test(server) && globToRegExp(rest.slice(at + 2)).test(tool)) return true;
  }
  return false;
}

/** The approval gate: `allow` patterns first, then `ask` (a terminal), else a refusal that says why. */
export function approver(allow: string[], ask?: Ask): Approve {
  return async (route, input) => {
    const { name } = route;
    const match = allow.find((glob) => allows(glob, route));
    if (match) return { allowed: true, why: `allowed by --allow '${match}'` };
    if (!ask)
      return { allowed: false, why: `${name} is not in the allow list (--allow), and there is no terminal to ask` };
    // The question goes to the terminal as it is, not through the host's printer: make it printable here.
    const answer = (await ask(printable(`allow ${name} ${JSON.stringify(input)}? [y/N] `))).trim().toLowerCase();
    return ["y", "yes"].includes(answer)
      ? { allowed: true, why: "approved by the user" }
      : { allowed: false, why: "refused by the user" };
  };
}

/** Asks on the terminal, or undefined when stdin is not one (a pipe, a file, a CI job). */
export function terminal(): Ask | undefined {
  if (!process.stdin.isTTY) return undefined;
  return async (question) => {
    const lines = createInterface({ input: process.stdin, output: process.stdout });
    // The terminal is in raw mode while asking: Ctrl-C reaches readline, not the process. Pass it on.
    lines.on("SIGINT", () => process.kill(process.pid, "SIGINT"));
    try {
      return await lines.question(question);
    } catch {
      return ""; // the input ended (Ctrl-D): no answer is no
    } finally {
      lines.close();
    }
  };
}
