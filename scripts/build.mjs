// Builds the WebAssembly package and the site:
//   1. cargo build --release --target wasm32-unknown-unknown -p gdlkit --lib
//   2. wasm-bindgen --target web → pkg/ (gdlkit.js, gdlkit_bg.wasm, gdlkit.d.ts)
//   3. copies pkg/ to site/pkg/ and the project's games to site/games/
//      (with an index.json for the page's picker),
//   4. bundles the page's sources (site/src/) with esbuild into site/build/:
//      app.js (the page), worker.js (the engine's Web Worker), elements.js
//      (the custom elements <gdl-tree> / <gdl-play> for slide decks),
//      gdl-reveal.js (the reveal.js plugin; reveal.js itself is copied to
//      site/vendor/reveal/ for the example deck site/reveal.html),
//      shared chunks and app.css,
//   5. the standalone template (scripts/standalone.mjs) for `gdlkit export`.
// All outputs are gitignored. Run as a script (`npm run build`), it first
// installs what is missing (scripts/setup.mjs).
//
// Usage: node scripts/build.mjs [--site-only]
//   --site-only  skip the wasm build (reuse pkg/): for working on the page

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { cargoTargetDir, hasFlag, heading, info, isMain, PKG, ROOT, runOrThrow, SITE } from './lib.mjs';
import { setup } from './setup.mjs';
import { buildStandalone } from './standalone.mjs';

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

/**
 * A game's title for the page's picker: its first `;` comment line, up to
 * ": ", ", the " or ", exactly " (the rest of the line describes the game),
 * at most 48 characters.
 */
function gameTitle(text, fallback) {
  const line = text.split('\n').find((l) => /^\s*;+\s*\S/.test(l));
  if (!line) return fallback;
  const full = line.replace(/^\s*;+\s*/, '').trim();
  const short = full.split(/: |, the |, exactly /)[0].trim();
  if (short.length <= 48) return short || fallback;
  return `${short.slice(0, 47).replace(/\s+\S*$/, '')}…`;
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
  copyReveal();
  info(`site/: pkg/ and ${games.length} games`);
}

/**
 * reveal.js (an npm devDependency) for the example deck site/reveal.html:
 * copied to site/vendor/reveal/ with its licence, so the deck loads
 * nothing from elsewhere.
 */
function copyReveal() {
  const from = join(ROOT, 'node_modules', 'reveal.js');
  const to = join(SITE, 'vendor', 'reveal');
  rmSync(to, { recursive: true, force: true });
  mkdirSync(join(to, 'theme'), { recursive: true });
  for (const [src, dest] of [['dist/reveal.js', 'reveal.js'], ['dist/reveal.css', 'reveal.css'], ['dist/theme/white.css', 'theme/white.css'], ['LICENSE', 'LICENSE']]) {
    copyFileSync(join(from, src), join(to, dest));
  }
}

/** The page's entry points (site/src/) → site/build/. */
export const SITE_ENTRIES = { app: 'src/app.js', worker: 'src/engine/worker.js', elements: 'src/elements.js', 'gdl-reveal': 'src/reveal-plugin.js' };

/**
 * Bundles site/src/ into site/build/ with esbuild (ES modules, code
 * splitting so the views load on demand, minified, with source maps).
 * esbuild's synchronous API, loaded on demand: it is an npm package and
 * setup() installs it first.
 */
function bundleSite() {
  const out = join(SITE, 'build');
  rmSync(out, { recursive: true, force: true });
  const esbuild = createRequire(import.meta.url)('esbuild');
  const entryPoints = Object.fromEntries(Object.entries(SITE_ENTRIES).map(([name, file]) => [name, join(SITE, file)]));
  esbuild.buildSync({
    entryPoints,
    bundle: true,
    format: 'esm',
    splitting: true,
    minify: true,
    sourcemap: true,
    target: 'es2022',
    loader: { '.css': 'text' },
    // Chunks beside the entries, so that URLs relative to any chunk (the worker) resolve.
    chunkNames: '[name]-[hash]',
    outdir: out,
    logLevel: 'warning',
    legalComments: 'linked',
  });
  // The stylesheet: linked by index.html (the custom elements import it as text).
  copyFileSync(join(SITE, 'src', 'style.css'), join(out, 'app.css'));
  let total = 0;
  const walk = (dir) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.js')) total += statSync(p).size;
    }
  };
  walk(out);
  info(`site/build/: ${(total / 1024).toFixed(0)} KiB of JavaScript`);
}

/** Builds pkg/ and the site's copies. `siteOnly` reuses an existing pkg/. */
export function build({ siteOnly = false } = {}) {
  heading(siteOnly ? 'build: site (reusing pkg/)' : 'build: wasm package and site');
  if (!siteOnly || !PKG_FILES.every((f) => existsSync(join(PKG, f)))) {
    buildWasm();
  }
  buildSite();
  bundleSite();
  buildStandalone();
}

if (isMain(import.meta.url)) {
  try {
    setup();
    build({ siteOnly: hasFlag('--site-only') });
  } catch (e) {
    console.error(`build failed: ${e.message}`);
    process.exit(1);
  }
}
