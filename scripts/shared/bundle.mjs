// One program bundled into one ESM file for Node, as the scripts start them: a bundle loads in a fraction of what tsx
// takes to compile the same files on each start. Every bundle the scripts build shares these options.
import { build } from "esbuild";

/** @type {import("esbuild").BuildOptions} */
const OPTIONS = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // Bundled CommonJS packages call require(): the banner gives the ESM bundle one.
  banner: {
    js:
      'import { createRequire as __createRequire } from "node:module"; ' +
      "const require = __createRequire(import.meta.url);",
  },
  logLevel: "warning",
};

/** Bundles `entryPoint` and all it imports into `outfile`. */
export const bundleForNode = (entryPoint, outfile) => build({ ...OPTIONS, entryPoints: [entryPoint], outfile });
