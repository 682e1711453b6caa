// A progress bar for notifications/progress: on a terminal, one line redrawn in place; elsewhere, one line per update.
// It knows nothing of transports: it takes the { progress, total, message } that any MCP client hands to onprogress.
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

const WIDTH = 20;

//#region render
/** "[#####...............] 1/4 counted 1 of 4"; a bar of "?" when the server gives no total. */
export function renderProgress({ progress, total, message }: Progress): string {
  const text = message === undefined ? "" : ` ${message}`;
  if (total === undefined || !(total > 0)) return `[${"?".repeat(WIDTH)}] ${progress}${text}`;
  const filled = Math.round(WIDTH * Math.min(Math.max(progress / total, 0), 1));
  return `[${"#".repeat(filled)}${".".repeat(WIDTH - filled)}] ${progress}/${total}${text}`;
}
//#endregion

//#region bar
export interface ProgressBar {
  update(progress: Progress): void;
  /** Prints a line of other output below the bar, which a terminal would otherwise overwrite. */
  print(line: string): void;
}

export function progressBar(out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout): ProgressBar {
  // Redrawing needs a terminal: in a pipe or a file, every "\r" version of the line would stay in the text.
  const live = out.isTTY === true;
  let open = false; // a live line that has no newline yet
  const endLine = () => {
    if (open) out.write("\n");
    open = false;
  };
  return {
    update(progress) {
      if (!live) return void out.write(`${renderProgress(progress)}\n`);
      out.write(`\r${renderProgress(progress)}\x1b[K`); // \x1b[K clears what a longer line left behind
      open = true;
    },
    print(line) {
      endLine();
      out.write(`${line}\n`);
    },
  };
}
//#endregion
