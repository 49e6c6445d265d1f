// Builds the WebAssembly package and the site:
//   1. cargo build --release --target wasm32-unknown-unknown -p gdlkit --lib
//   2. wasm-bindgen --target web → pkg/ (gdlkit.js, gdlkit_bg.wasm, gdlkit.d.ts)
//   3. copies pkg/ to site/pkg/ and the project's games to site/games/
//      (with an index.json for the page's picker).
// Both outputs are gitignored. Run as a script (`npm run build`), it first
// installs what is missing (scripts/setup.mjs).
//
// Usage: node scripts/build.mjs

import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { cargoTargetDir, heading, info, isMain, PKG, ROOT, runOrThrow, SITE } from './lib.mjs';
import { setup } from './setup.mjs';

/** Files wasm-bindgen writes for `--out-name gdlkit`. */
export const PKG_FILES = ['gdlkit.js', 'gdlkit.d.ts', 'gdlkit_bg.wasm', 'gdlkit_bg.wasm.d.ts'];

function buildWasm() {
  runOrThrow('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'gdlkit', '--lib']);
  const wasm = join(cargoTargetDir(), 'wasm32-unknown-unknown', 'release', 'gdlkit.wasm');
  rmSync(PKG, { recursive: true, force: true });
  runOrThrow('wasm-bindgen', ['--target', 'web', '--out-dir', PKG, '--out-name', 'gdlkit', wasm]);
  const size = statSync(join(PKG, 'gdlkit_bg.wasm')).size;
  info(`pkg/gdlkit_bg.wasm: ${(size / 1024).toFixed(0)} KiB`);
}

/** The first `;`-comment line of a game, as its title. */
function gameTitle(text, fallback) {
  const line = text.split('\n').find((l) => /^\s*;+\s*\S/.test(l));
  return line ? line.replace(/^\s*;+\s*/, '').trim() : fallback;
}

function buildSite() {
  const sitePkg = join(SITE, 'pkg');
  rmSync(sitePkg, { recursive: true, force: true });
  mkdirSync(sitePkg, { recursive: true });
  for (const file of PKG_FILES) {
    copyFileSync(join(PKG, file), join(sitePkg, file));
  }
  const siteGames = join(SITE, 'games');
  rmSync(siteGames, { recursive: true, force: true });
  mkdirSync(siteGames, { recursive: true });
  const games = [];
  for (const file of readdirSync(join(ROOT, 'games')).filter((f) => f.endsWith('.kif')).sort()) {
    const text = readFileSync(join(ROOT, 'games', file), 'utf8');
    copyFileSync(join(ROOT, 'games', file), join(siteGames, file));
    games.push({ file, name: basename(file, '.kif'), title: gameTitle(text, basename(file, '.kif')) });
  }
  writeFileSync(join(siteGames, 'index.json'), `${JSON.stringify(games, null, 2)}\n`);
  info(`site/: pkg/ and ${games.length} games`);
}

/** Builds pkg/ and the site's copies. */
export function build() {
  heading('build: wasm package and site');
  buildWasm();
  buildSite();
}

if (isMain(import.meta.url)) {
  try {
    setup();
    build();
  } catch (e) {
    console.error(`build failed: ${e.message}`);
    process.exit(1);
  }
}
