// Random playouts per second of the WebAssembly build in Node: runs the very
// same CLI command as the native binary (`gdlkit bench GAME --seconds S`)
// through `runCli`, so both numbers come from the same code.
//
// Usage: node scripts/bench-wasm.mjs GAME.kif... [--seconds S] [--seed N] [--pkg DIR]
// (needs `npm run build` first: it loads pkg/gdlkit_bg.wasm, or DIR's)

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PKG } from './lib.mjs';

const args = process.argv.slice(2);
const options = [];
const games = [];
let pkg = PKG;
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--pkg') {
    pkg = resolve(args[i + 1]);
    i += 1;
  } else if (args[i].startsWith('--')) {
    options.push(args[i], args[i + 1]);
    i += 1;
  } else {
    games.push(args[i]);
  }
}
if (games.length === 0) {
  console.error('usage: node scripts/bench-wasm.mjs GAME.kif... [--seconds S] [--seed N]');
  process.exit(2);
}

const { initSync, runCli } = await import(pathToFileURL(join(pkg, 'gdlkit.js')).href);
initSync({ module: readFileSync(join(pkg, 'gdlkit_bg.wasm')) });

let failed = false;
for (const game of games) {
  const result = runCli(['bench', game, ...options], (path) => readFileSync(path, 'utf8'));
  if (result.code === 0) {
    // The CLI's JSON, plus where it ran.
    console.log(JSON.stringify({ ...JSON.parse(result.stdout), runtime: `wasm in Node ${process.version}` }));
  }
  process.stderr.write(result.stderr);
  failed ||= result.code !== 0;
}
process.exit(failed ? 1 : 0);
