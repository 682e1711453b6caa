// The child process: answers every line it reads on stdin, upper-cased, on stdout.
// stdout carries answers and nothing else; logs go to stderr.
import { LineDecoder, LineTooLong, type Line } from "./framing.ts";

const decoder = new LineDecoder();
let answered = 0;

function answer(line: Line): void {
  // The over-long line's bytes are gone already; the child says so, and the next line is served as usual.
  if (line instanceof LineTooLong) process.stdout.write(`ERROR: a line over ${line.limit} bytes was dropped\n`);
  else process.stdout.write(line.toUpperCase() + "\n");
  answered += 1;
}

process.stdin.on("data", (chunk: Buffer) => {
  for (const line of decoder.push(chunk)) answer(line);
});

process.stdin.on("end", () => {
  const last = decoder.end();
  if (last !== undefined) answer(last);
  console.error(`[server] stdin closed after ${answered} lines; exiting`);
});

console.error("[server] ready");
