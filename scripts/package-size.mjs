// Sizes of the npm package, for BENCHMARKS.md ("npm package"): the tarball
// `npm pack` makes (compressed and unpacked), and the .wasm raw, gzip -9
// and brotli (what a web server sends with compression on). Needs pkg/
// (`npm run build`). Prints a Markdown table.
//
// Usage: node scripts/package-size.mjs

import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isMain, PKG, ROOT } from './lib.mjs';

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

/** { tarball, unpacked, files, wasm, wasmGzip, wasmBrotli, js } in bytes. */
export function packageSizes() {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) {
    throw new Error(`npm pack --dry-run failed:\n${r.stderr}`);
  }
  const [info] = JSON.parse(r.stdout);
  const wasm = readFileSync(join(PKG, 'gdlkit_bg.wasm'));
  const js = info.files.filter((f) => f.path.endsWith('.js')).reduce((n, f) => n + f.size, 0);
  return {
    tarball: info.size,
    unpacked: info.unpackedSize,
    files: info.entryCount,
    wasm: statSync(join(PKG, 'gdlkit_bg.wasm')).size,
    wasmGzip: gzipSync(wasm, { level: 9 }).length,
    wasmBrotli: brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    js,
  };
}

if (isMain(import.meta.url)) {
  const s = packageSizes();
  console.log('| what | size |');
  console.log('|---|---|');
  console.log(`| tarball (\`npm pack\`, ${s.files} files) | ${kib(s.tarball)} |`);
  console.log(`| unpacked | ${kib(s.unpacked)} |`);
  console.log(`| \`gdlkit_bg.wasm\` raw | ${kib(s.wasm)} |`);
  console.log(`| \`gdlkit_bg.wasm\` gzip -9 | ${kib(s.wasmGzip)} |`);
  console.log(`| \`gdlkit_bg.wasm\` brotli 11 | ${kib(s.wasmBrotli)} |`);
  console.log(`| JavaScript (\`js/\` and \`pkg/gdlkit.js\`, unminified) | ${kib(s.js)} |`);
}
