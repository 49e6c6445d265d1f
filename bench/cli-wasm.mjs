// Runs any gdlkit CLI command through the WebAssembly build in Node
// (`runCli`), reading files from disk, so a native figure and its wasm
// counterpart come from the very same code. Prints the command's stdout
// (and stderr), adding `runtime` to JSON output.
//
// Usage (after `npm run build`, which writes pkg/):
//   node bench/cli-wasm.mjs search GAME.kif --budget-ms 5000 --format json
//   node bench/cli-wasm.mjs match GAME.kif --players mcts:ms=200 random --games 10 --format json

import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PKG = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'pkg');
const { initSync, runCli } = await import(pathToFileURL(join(PKG, 'gdlkit.js')).href);
initSync({ module: readFileSync(join(PKG, 'gdlkit_bg.wasm')) });

const args = process.argv.slice(2);
const result = runCli(args, (path) => readFileSync(path, 'utf8'));
let out = result.stdout;
try {
  out = `${JSON.stringify({ ...JSON.parse(out), runtime: `wasm in Node ${process.version}` })}\n`;
} catch {
  // text output: print as it is
}
process.stdout.write(out);
process.stderr.write(result.stderr);
process.exit(result.code);
