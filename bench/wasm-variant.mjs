// One variant of the npm package's wasm for bench/wasm-ab.mjs: the same
// cargo build, wasm-bindgen and wasm-opt as scripts/build.mjs (its
// WASM_RUSTFLAGS and WASM_OPT_FLAGS), with extra rustc flags, cargo
// `--config` settings or other wasm-opt flags, into OUT (wasm-bindgen's
// --target web files). A rustc flag changes every crate's build: give such
// variants their own --target-dir, so the tree's target/ stays as it is.
//
// Usage: node bench/wasm-variant.mjs OUT [--rustflags "-C target-feature=+simd128"]
//          [--config 'profile.release.opt-level=2']… [--wasm-opt "-O4 …" | --no-wasm-opt]
//          [--target-dir DIR]
// e.g. node bench/wasm-variant.mjs /tmp/opt2/pkg --config 'profile.release.opt-level=2' --target-dir target/opt2

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WASM_OPT_FLAGS, WASM_RUSTFLAGS } from '../scripts/build.mjs';
import { cargoTargetDir, ROOT } from '../scripts/lib.mjs';
import { withoutTargetFeature } from '../scripts/wasm-features.mjs';

const args = process.argv.slice(2);
const out = args[0] && !args[0].startsWith('--') ? resolve(args[0]) : null;
if (!out) {
  console.error('usage: node bench/wasm-variant.mjs OUT [--rustflags FLAGS] [--config K=V]… [--wasm-opt FLAGS | --no-wasm-opt] [--target-dir DIR]');
  process.exit(2);
}
const rustflags = [...WASM_RUSTFLAGS];
const config = [];
let optFlags = WASM_OPT_FLAGS;
let targetDir = cargoTargetDir();
for (let i = 1; i < args.length; i++) {
  const a = args[i];
  if (a === '--no-wasm-opt') optFlags = null;
  else if (i + 1 >= args.length) throw new Error(`${a} needs a value`);
  else if (a === '--rustflags') rustflags.push(...args[++i].split(' ').filter(Boolean));
  else if (a === '--config') config.push('--config', args[++i]);
  else if (a === '--wasm-opt') optFlags = args[++i].split(' ').filter(Boolean);
  else if (a === '--target-dir') targetDir = resolve(args[++i]);
  else throw new Error(`unknown option ${a}`);
}

const run = (cmd, argv) => execFileSync(cmd, argv, { cwd: ROOT, stdio: 'inherit' });
run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'gdlkit-wasm', '--lib', '--target-dir', targetDir, '--config', `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(rustflags)}`, ...config]);
const input = join(targetDir, 'tmp', 'gdlkit-variant-input.wasm');
mkdirSync(join(targetDir, 'tmp'), { recursive: true });
writeFileSync(input, withoutTargetFeature(readFileSync(join(targetDir, 'wasm32-unknown-unknown', 'release', 'gdlkit_wasm.wasm')), 'reference-types'));
rmSync(out, { recursive: true, force: true });
run('wasm-bindgen', ['--target', 'web', '--out-dir', out, '--out-name', 'gdlkit', input]);
const wasm = join(out, 'gdlkit_bg.wasm');
const before = statSync(wasm).size;
if (optFlags) run('wasm-opt', [...optFlags, wasm, '-o', wasm]);
const bytes = readFileSync(wasm);
console.log(`${wasm}: ${bytes.length} bytes, gzip -9 ${gzipSync(bytes, { level: 9 }).length}, ${before} before wasm-opt`);
