// The floor: a stdio child that cuts its input into lines and writes each line back, byte for byte.
// It neither decodes UTF-8 nor parses JSON, so it does less than any MCP server.
// `--batched` sends the lines of one chunk in one write; `--naive` has the classic decoding bug.
import { splitLines } from "./lines.ts";

//#region framed
// The floor the targets use: each line is written back the moment it is framed, one write per line.
function echoFramed(): void {
  process.stdin.on(
    "data",
    splitLines((line) => process.stdout.write(line)),
  );
}

// The floor for batching code: the lines one chunk completes are corked, then leave in one write.
function echoBatched(): void {
  const echo = splitLines((line) => process.stdout.write(line));
  process.stdin.on("data", (chunk: Buffer) => {
    process.stdout.cork();
    echo(chunk);
    process.stdout.uncork();
  });
}
//#endregion

//#region naive
// The version found in many tutorials: each chunk is decoded on its own, so a character split across two
// chunks turns into U+FFFD replacement characters; and every chunk rescans the text from its start.
function echoNaive(): void {
  let text = "";
  process.stdin.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n")) {
      process.stdout.write(text.slice(0, newline + 1));
      text = text.slice(newline + 1);
    }
  });
}
//#endregion

if (process.argv.includes("--naive")) echoNaive();
else if (process.argv.includes("--batched")) echoBatched();
else echoFramed();
