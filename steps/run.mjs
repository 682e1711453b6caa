// The step runner: lists chapters, runs a step's demo, shows its diff or its JSON-RPC wire traffic. This file only
// checks the Node version and then loads the rest, so an old Node gets a clear message, not a syntax error.

var required = [20, 19];
var current = process.versions.node.split(".").map(Number);
var tooOld = current[0] < required[0] || (current[0] === required[0] && current[1] < required[1]);

if (tooOld) {
  console.error(
    "This tutorial needs Node " +
      required.join(".") +
      " or newer; this is Node " +
      process.versions.node +
      ".\n" +
      "Install a current Node (https://nodejs.org) and run the command again.",
  );
  process.exit(1);
} else {
  import("./runner/cli.mjs").then(function (cli) {
    return cli.main(process.argv.slice(2));
  });
}
