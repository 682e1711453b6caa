// `node scripts/host-config/host-config.mjs [--sandbox DIR] [--name NAME] [--node PATH]`: prints, ready to paste, what
// connects the tutorial's hand-written server to Claude Code, Claude Desktop, Cursor and VS Code, with this machine's
// absolute paths. Desktop apps do not start from your shell, so the entry names node and tsx by full path, not through
// PATH.
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { roleProgram } from "../../steps/runner/shared/roles.mjs";

const ROLE = "hand-written server";

/** The server's stdio entry for this machine: node, tsx's loader and the server, all absolute; the sandbox last. */
export function serverEntry(sandbox, node = process.execPath) {
  const server = roleProgram(ROLE);
  // tsx's loader through the server's own step folder (steps/NN-slug/node_modules/tsx), a path that outlives
  // reinstalls.
  const stepDir = path.dirname(path.dirname(server));
  const resolved = createRequire(path.join(stepDir, "package.json")).resolve("tsx");
  const inside = resolved.slice(resolved.lastIndexOf(`${path.sep}tsx${path.sep}`) + 5);
  const loader = path.join(stepDir, "node_modules", "tsx", inside);
  // --import takes a module specifier: an absolute path on POSIX, a file: URL on Windows (C:\ is not a specifier).
  return {
    command: node,
    args: ["--import", process.platform === "win32" ? pathToFileURL(loader).href : loader, server, sandbox],
  };
}

// A shell word: left as is when it is plain, single-quoted otherwise.
const shellWord = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);
const json = (value) => JSON.stringify(value, null, 2);

/** Every host's snippet, in the order printed: a title, where it goes, and the text. */
export function hostConfigs(name, entry) {
  const servers = { [name]: entry };
  return [
    {
      host: "Claude Code, from its command line",
      where:
        "a shell in your project; with no --scope it is local: this " +
        "project, on this machine only (kept in ~/.claude.json)",
      text: ["claude", "mcp", "add", name, "--", entry.command, ...entry.args].map(shellWord).join(" "),
      notes: ["Local scope suits paths that are true on one machine only. Check it with: claude mcp list"],
    },
    {
      host: "Claude Code, project scope",
      where: ".mcp.json at the project's root (what claude mcp add --scope project writes)",
      text: json({ mcpServers: servers }),
      notes: [
        "This file is meant for git, and these paths are this machine's: " +
          "commit it only where every clone has the same paths.",
        "Variables are written ${NAME} or ${NAME:-default}, in command, args, env, url and headers.",
      ],
    },
    {
      host: "Claude Desktop",
      where:
        "claude_desktop_config.json: on macOS in ~/Library/Application " +
        "Support/Claude/, on Windows in %APPDATA%\\Claude\\ (it has no Linux build)",
      text: json({ mcpServers: servers }),
      notes: ["It starts stdio servers only from this file, when it starts: quit and reopen it after an edit."],
    },
    {
      host: "Cursor",
      where: ".cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project",
      text: json({ mcpServers: servers }),
      notes: ["Variables are written ${env:NAME}, for example ${env:HOME}."],
    },
    {
      host: "VS Code",
      where: ".vscode/mcp.json in the workspace",
      text: json({ servers: { [name]: { type: "stdio", ...entry } } }),
      notes: ['The top-level key is "servers", not "mcpServers", and each entry names its type.'],
    },
  ];
}

function main() {
  const { values } = parseArgs({
    options: { sandbox: { type: "string" }, name: { type: "string" }, node: { type: "string" } },
  });
  const sandbox = path.resolve(values.sandbox ?? path.join(os.homedir(), "learn-mcp-sandbox"));
  const name = values.name ?? "learn-mcp";
  if (!/^[\w-]{1,64}$/.test(name))
    throw new Error(`--name ${name}: use letters, digits, "_" and "-" (at most 64), as tool names need`);
  const entry = serverEntry(sandbox, values.node); // --node: the node the host should start, if not this one
  console.log(`The tutorial's ${ROLE} as "${name}", writing only inside ${sandbox} (create that folder first).\n`);
  for (const { host, where, text, notes } of hostConfigs(name, entry)) {
    console.log(`== ${host}\n   ${where}\n${text}\n${notes.map((note) => `   ${note}`).join("\n")}\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main();
  } catch (error) {
    console.error(`host-config: ${error.message}`);
    process.exitCode = 2;
  }
}
