// Every tool call needs the user's approval, as the MCP specification asks of hosts. A call whose name matches an
// --allow pattern runs; any other is put to the user as y/n when there is a terminal, and refused when there is none.
import { createInterface } from "node:readline/promises";

export interface Verdict { allowed: boolean; why: string }
export type Approve = (name: string, input: unknown) => Promise<Verdict>;
export type Ask = (question: string) => Promise<string>;

/** A glob over tool names: `*` stands for any characters, `?` for one, everything else for itself. */
export function globToRegExp(glob: string): RegExp {
  const pattern = [...glob].map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${pattern}$`);
}

/** The approval gate: `allow` patterns first, then `ask` (a terminal), else a refusal that says why. */
export function approver(allow: string[], ask?: Ask): Approve {
  const patterns = allow.map((glob) => ({ glob, regexp: globToRegExp(glob) }));
  return async (name, input) => {
    const match = patterns.find(({ regexp }) => regexp.test(name));
    if (match) return { allowed: true, why: `allowed by --allow '${match.glob}'` };
    if (!ask) return { allowed: false, why: `${name} is not in the allow list (--allow), and there is no terminal to ask` };
    const answer = (await ask(`allow ${name} ${JSON.stringify(input)}? [y/N] `)).trim().toLowerCase();
    return ["y", "yes"].includes(answer) ? { allowed: true, why: "approved by the user" } : { allowed: false, why: "refused by the user" };
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
