// Builds the WebAssembly packages and the site:
//   1. two wasm builds (cargo build --release --target wasm32-unknown-unknown
//      -p gdlkit --lib): the npm package's with the command line (default
//      features) → pkg/, and the page's without it (--no-default-features)
//      → site/pkg/; each through wasm-bindgen --target web and, when
//      binaryen is installed, wasm-opt (WASM_OPT_FLAGS); the page's
//      check wasm (no `engine` feature: check, format, fix) → site/pkg-check/
//      with its worker site/build/check-worker.js; and the npm package's
//      wasm with threads (shared memory, std rebuilt with atomics) →
//      pkg-threads/ (js/threads-node.js) and site/pkg-threads/ (the page's
//      engine when the page is cross-origin isolated),
//   2. copies the project's games to site/games/ with index.json (headers from
//      the Rust library: the picker and the gallery) and a thumbnail SVG of
//      each board (pkg/: structure, renderBoard),
//   3. bundles the page's sources (site/src/) with esbuild into site/build/:
//      app.js (the page), worker.js (the engine's Web Worker), elements.js
//      (the custom elements <gdl-tree> / <gdl-play> for slide decks),
//      gdl-reveal.js (the reveal.js plugin; reveal.js itself is copied to
//      site/vendor/reveal/ for the example deck site/reveal.html),
//      shared chunks and app.css; they import site/pkg/gdlkit.js
//      (scripts/site-glue.mjs),
//   4. the standalone template (scripts/standalone.mjs) for `gdlkit export`.
// All outputs are gitignored. Run as a script (`npm run build`), it first
// installs what is missing (scripts/setup.mjs).
//
// Usage: node scripts/build.mjs [--site-only]
//   --site-only  skip the wasm builds (reuse pkg/ and site/pkg/): for working on the page

import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { capture, cargoTargetDir, hasFlag, heading, info, isMain, PKG, ROOT, runOrThrow, SITE } from './lib.mjs';
import { setup } from './setup.mjs';
import { SITE_LOG_OVERRIDE, siteGlue, siteThreadsGlue } from './site-glue.mjs';
import { buildStandalone } from './standalone.mjs';
import { withoutTargetFeature } from './wasm-features.mjs';

/** Files wasm-bindgen writes for `--out-name gdlkit`. */
export const PKG_FILES = ['gdlkit.js', 'gdlkit.d.ts', 'gdlkit_bg.wasm', 'gdlkit_bg.wasm.d.ts'];

/**
 * wasm-opt's flags (binaryen; Debian's 108 and newer). -O3 for speed, but a
 * function with a single caller is inlined only when small: inlining every
 * one of them (binaryen's default) builds huge functions that Node 20's V8
 * leaves unoptimised (the fast engine's playouts ran 2-4x slower in Node).
 */
export const WASM_OPT_FLAGS = ['-O3', '--one-caller-inline-max-function-size=50'];

const SITE_PKG = join(SITE, 'pkg');

/**
 * rustc flags of the release wasm builds: .cargo/config.toml's stack size
 * and maximum memory, and no reference types (no externref table, which
 * binaryen 108 cannot read). Not in the `ci` profile: there the builds keep
 * .cargo/config.toml's flags, the wasm tests' own (wasm-bindgen-test-runner
 * needs reference types), so that the tests reuse the crates compiled for
 * the packages instead of compiling everything again.
 */
export const WASM_RUSTFLAGS = ['-C', 'link-arg=-zstack-size=8388608', '-C', 'link-arg=--max-memory=2147483648', '-C', 'target-feature=-reference-types'];

/**
 * The cargo profile of the wasm builds: `release` (fat link-time
 * optimisation, one codegen unit: what `npm start` serves and the npm
 * package ships), or `ci` when GDLKIT_WASM_PROFILE=ci: `npm test` builds
 * the same code optimised with parallel codegen and debug assertions, all
 * three packages in one target directory (WASM_CI_TARGET_DIR).
 */
const WASM_PROFILE = process.env.GDLKIT_WASM_PROFILE === 'ci' ? 'ci' : 'release';

/**
 * The target directory (under Cargo's) of the `ci` wasm builds, then of the
 * wasm tests: free of the native tests' cargo lock.
 */
export const WASM_CI_TARGET_DIR = 'wasm-ci';

/**
 * The arguments of a `cargo build` of the wasm library into its own target
 * directory (`target/<dir>`), so that it neither waits for nor blocks the
 * native tests' builds, and two release builds run side by side.
 */
function cargoWasmArgs(dir, cargoFlags) {
  const targetDir = join(cargoTargetDir(), WASM_PROFILE === 'ci' ? WASM_CI_TARGET_DIR : dir);
  const output = join(targetDir, 'wasm32-unknown-unknown', WASM_PROFILE, 'gdlkit_wasm.wasm');
  const rustflags = WASM_PROFILE === 'ci' ? [] : ['--config', `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(WASM_RUSTFLAGS)}`];
  const args = ['build', '--profile', WASM_PROFILE, '--target', 'wasm32-unknown-unknown', '-p', 'gdlkit-wasm', '--lib', '--target-dir', targetDir, ...rustflags, ...cargoFlags];
  return { args, output };
}

/** Where the wasm with threads goes (js/threads-node.js loads it), and its copy for the page. */
export const PKG_THREADS = join(ROOT, 'pkg-threads');
const SITE_PKG_THREADS = join(SITE, 'pkg-threads');

/**
 * rustc flags of the wasm with threads: shared memory and atomics (the
 * stack size and maximum memory of WASM_RUSTFLAGS), and the thread-local
 * storage exports wasm-bindgen's thread support needs. Rust's prebuilt
 * standard library has no atomics, so this build rebuilds it (`-Z
 * build-std`, allowed on a stable toolchain by RUSTC_BOOTSTRAP=1).
 */
const THREADS_RUSTFLAGS = [
  ...['-C', 'target-feature=+atomics,+bulk-memory,+mutable-globals'],
  ...['-C', 'link-arg=-zstack-size=8388608', '-C', 'link-arg=--max-memory=2147483648'],
  ...['--shared-memory', '--import-memory', '--export=__wasm_init_tls', '--export=__tls_size', '--export=__tls_align', '--export=__tls_base'].flatMap((a) => ['-C', `link-arg=${a}`]),
];

/** The wasm with threads (the npm package's features), in the background: resolves when pkg-threads/ is written. */
async function buildThreadsWasm() {
  const targetDir = join(cargoTargetDir(), WASM_PROFILE === 'ci' ? 'wasm-ci-threads' : 'wasm-threads');
  const args = ['build', '--profile', WASM_PROFILE, '--target', 'wasm32-unknown-unknown', '-p', 'gdlkit-wasm', '--lib', '--target-dir', targetDir];
  args.push('-Z', 'build-std=panic_abort,std', '--config', `target.wasm32-unknown-unknown.rustflags=${JSON.stringify(THREADS_RUSTFLAGS)}`);
  console.log(`$ RUSTC_BOOTSTRAP=1 cargo ${args.join(' ')} (in the background)`);
  const child = spawn('cargo', args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, RUSTC_BOOTSTRAP: '1' } });
  await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`\`cargo ${args.join(' ')}\` failed (exit code ${code})`))));
  });
  const input = join(targetDir, 'wasm32-unknown-unknown', WASM_PROFILE, 'gdlkit_wasm.wasm');
  rmSync(PKG_THREADS, { recursive: true, force: true });
  // The reset-state function and __gdlkit_forget as for pkg/ (js/wasm.js
  // rebuilds a trapped instance the same way, then starts its threads again).
  runOrThrow('wasm-bindgen', ['--target', 'web', '--experimental-reset-state-function', '--out-dir', PKG_THREADS, '--out-name', 'gdlkit', input]);
  addForget(join(PKG_THREADS, 'gdlkit.js'));
  // The page loads the same module when it is cross-origin isolated.
  rmSync(SITE_PKG_THREADS, { recursive: true, force: true });
  mkdirSync(SITE_PKG_THREADS, { recursive: true });
  for (const f of ['gdlkit.js', 'gdlkit_bg.wasm']) copyFileSync(join(PKG_THREADS, f), join(SITE_PKG_THREADS, f));
  info(`pkg-threads/gdlkit_bg.wasm (the npm package with threads, also site/pkg-threads/; ${WASM_PROFILE} profile): ${bytes(statSync(join(PKG_THREADS, 'gdlkit_bg.wasm')).size)}`);
}

/** `cargo build` of the wasm library with `cargoFlags`: its bytes. */
function cargoWasm(cargoFlags) {
  const { args, output } = cargoWasmArgs('wasm-release', cargoFlags);
  runOrThrow('cargo', args);
  return readFileSync(output);
}

/**
 * The same, started in the background: resolves to the bytes. Its output
 * goes to the terminal as it comes (not through a pipe, which would fill
 * while the builds in the foreground hold the event loop).
 */
function cargoWasmInBackground(dir, cargoFlags) {
  const { args, output } = cargoWasmArgs(dir, cargoFlags);
  console.log(`$ cargo ${args.join(' ')} (in the background)`);
  const child = spawn('cargo', args, { cwd: ROOT, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(readFileSync(output)) : reject(new Error(`\`cargo ${args.join(' ')}\` failed (exit code ${code})`))));
  });
}

const bytes = (n) => `${n.toLocaleString('en-US')} bytes`;

/**
 * wasm-bindgen and wasm-opt over the module `bytes` into `outDir`. A
 * release module is compiled without reference types (WASM_RUSTFLAGS),
 * which its target_features section is made to say
 * (scripts/wasm-features.mjs), so wasm-bindgen uses no externref table and
 * binaryen 108 can read it. A `ci` module keeps reference types (an
 * externref table in the glue, which Node 20 and Chromium run) and is not
 * passed to wasm-opt: `npm test` checks the code, the release build its size.
 */
function bindgen(module, outDir, label, { outName = 'gdlkit', optFlags = WASM_OPT_FLAGS } = {}) {
  const input = join(cargoTargetDir(), 'tmp', 'gdlkit-bindgen-input.wasm');
  mkdirSync(dirname(input), { recursive: true });
  writeFileSync(input, WASM_PROFILE === 'ci' ? module : withoutTargetFeature(module, 'reference-types'));
  rmSync(outDir, { recursive: true, force: true });
  runOrThrow('wasm-bindgen', ['--target', 'web', '--experimental-reset-state-function', '--out-dir', outDir, '--out-name', outName, input]);
  addForget(join(outDir, `${outName}.js`));
  const wasm = join(outDir, `${outName}_bg.wasm`);
  const before = statSync(wasm).size;
  if (WASM_PROFILE === 'ci') {
    info('ci profile: wasm-opt skipped');
  } else if (capture('wasm-opt', ['--version']) !== null) {
    runOrThrow('wasm-opt', [...optFlags, wasm, '-o', wasm]);
  } else {
    info('wasm-opt not found (Debian package binaryen): the wasm is not optimised further');
  }
  const after = readFileSync(wasm);
  info(`${label}: ${bytes(after.length)} (zlib gzip level 9: ${bytes(gzipSync(after, { level: 9 }).length)}; ${bytes(before)} before wasm-opt)`);
}

/**
 * After a trap js/wasm.js makes a new instance with wasm-bindgen's
 * `__wbg_reset_state` (`--experimental-reset-state-function`: synchronous;
 * objects and finalizers of the old instance are recognised as stale).
 * A browser's main thread may refuse to instantiate a large module
 * synchronously: then `__gdlkit_forget()`, appended here, drops the
 * instance and returns the compiled module, so that `init` instantiates it
 * again asynchronously.
 */
export function addForget(glue) {
  const text = readFileSync(glue, 'utf8');
  if (!/^let wasmModule, wasmInstance, wasm;$/m.test(text) || !text.includes('function __wbg_reset_state')) {
    throw new Error(`${glue}: wasm-bindgen's output changed (no \`let wasmModule, wasmInstance, wasm;\` or __wbg_reset_state): update addForget`);
  }
  // wasm-bindgen keeps its first init's promise (__wbg_init_promise):
  // forgetting it too makes the next init instantiate again.
  const promise = text.includes('let __wbg_init_promise') ? '\n  __wbg_init_promise = undefined;' : '';
  writeFileSync(glue, `${text}\n/** Drops the instance and returns the compiled module, for \`init\` to instantiate again (added by scripts/build.mjs). */\nexport function __gdlkit_forget() {\n  wasm = undefined;${promise}\n  return wasmModule;\n}\n\n/** The current instance (added by scripts/build.mjs). */\nexport function __gdlkit_instance() {\n  return wasmInstance;\n}\n`);
}

/**
 * The npm package's wasm (pkg/) and the page's, without the command line
 * (site/pkg/); the check wasm is built beside them (its own features and
 * optimisation level share no crate with theirs, and a fat-LTO build
 * leaves the second core idle).
 */
async function buildWasm() {
  // The threaded build shares no crate with the others (its own flags and std).
  const threads = buildThreadsWasm();
  try {
    await buildWasmWithoutThreads();
  } finally {
    // Waited for also when the foreground failed: no build is left running.
    await threads;
  }
}

async function buildWasmWithoutThreads() {
  if (WASM_PROFILE === 'ci') {
    // One target directory, so one build after the other; the check wasm
    // shares the other builds' crates (no size optimisation).
    bindgenCheck(cargoWasm(['--no-default-features']));
    bindgen(cargoWasm(['--no-default-features', '--features', 'engine']), SITE_PKG, 'site/pkg/gdlkit_bg.wasm (the page, no command line; ci profile)');
    bindgen(cargoWasm([]), PKG, 'pkg/gdlkit_bg.wasm (the npm package; ci profile)');
    return;
  }
  const check = cargoWasmInBackground('wasm-check', CHECK_FLAGS);
  try {
    bindgen(cargoWasm(['--no-default-features', '--features', 'engine']), SITE_PKG, 'site/pkg/gdlkit_bg.wasm (the page, no command line)');
    bindgen(cargoWasm([]), PKG, 'pkg/gdlkit_bg.wasm (the npm package)');
  } finally {
    bindgenCheck(await check);
  }
}

// ---- The page's check wasm: the crate without its
// `engine` feature exports only check, format, fix and version, so the
// editor's first diagnostics come from a wasm a fifth of the engine's size
// (site/src/engine/check-worker.js) while the engine's loads. The same Rust
// functions as the engine's, compiled for size: a text is checked in
// milliseconds either way.

/** Where the check wasm and its glue go (site/pkg-check/gdlkit_check.js, gdlkit_check_bg.wasm). */
export const SITE_CHECK_PKG = join(SITE, 'pkg-check');
export const CHECK_FILES = ['gdlkit_check.js', 'gdlkit_check_bg.wasm'];

/** The check wasm's cargo flags: no engine, optimised for size. */
const CHECK_FLAGS = ['--no-default-features', '--config', 'profile.release.opt-level="z"'];

function bindgenCheck(module) {
  bindgen(module, SITE_CHECK_PKG, 'site/pkg-check/gdlkit_check_bg.wasm (the page\'s check wasm)', { outName: 'gdlkit_check', optFlags: ['-Oz'] });
}

/**
 * The check worker (site/src/engine/check-worker.js → site/build/check-worker.js):
 * one file without shared chunks, so that it starts after one request.
 */
async function bundleCheckWorker() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  await esbuild.build({
    entryPoints: { 'check-worker': join(SITE, 'src', 'engine', 'check-worker.js') },
    bundle: true,
    format: 'esm',
    minify: true,
    sourcemap: true,
    target: 'es2022',
    outdir: join(SITE, 'build'),
    logLevel: 'warning',
    legalComments: 'linked',
  });
}
// ---- end of the check wasm

/**
 * The game library for the page: copies games/*.kif to site/games/ and
 * writes site/games/index.json (`[{file, name, title, category, board,
 * credit, description, wellFormed, thumbnail}]`) and a thumbnail SVG of
 * each board's initial position. Headers, structure and the SVG all come
 * from Rust (pkg/: `games()`, `structure()`, `renderBoard()`), so the page
 * parses nothing.
 */
async function buildSite() {
  const siteGames = join(SITE, 'games');
  rmSync(siteGames, { recursive: true, force: true });
  mkdirSync(siteGames, { recursive: true });
  const gdl = await import(pathToFileURL(join(ROOT, 'js', 'node.js')).href);
  if (typeof gdl.games !== 'function') throw new Error('pkg/ predates the game library: run `npm run build` without --site-only');
  const games = [];
  for (const entry of gdl.games()) {
    const file = `${entry.name}.kif`;
    copyFileSync(join(ROOT, 'games', file), join(siteGames, file));
    const thumbnail = entry.board ? boardThumbnail(gdl, readFileSync(join(ROOT, 'games', file), 'utf8')) : '';
    if (thumbnail) writeFileSync(join(siteGames, `${entry.name}.svg`), thumbnail);
    games.push({ file, ...entry, thumbnail: thumbnail ? `${entry.name}.svg` : null });
  }
  writeFileSync(join(siteGames, 'index.json'), `${JSON.stringify(games, null, 2)}\n`);
  copyReveal();
  info(`site/: ${games.length} games, ${games.filter((g) => g.thumbnail).length} thumbnails`);
}

/** The SVG of a game's initial board (small cells, no labels), or "". */
function boardThumbnail(gdl, kif) {
  // The interpreter gives the initial state at once (no grounding).
  const game = new gdl.Game(kif, { engine: 'interpreter' });
  try {
    const st = gdl.structure(kif, { states: 200, ms: 3000 });
    return gdl.renderBoard(st, game.fluents(game.initialState()), { cell: 16, labels: false });
  } finally {
    game.free();
  }
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
 * esbuild is loaded on demand: it is an npm package and setup() installs
 * it first.
 */
async function bundleSite() {
  const out = join(SITE, 'build');
  rmSync(out, { recursive: true, force: true });
  const esbuild = createRequire(import.meta.url)('esbuild');
  const entryPoints = Object.fromEntries(Object.entries(SITE_ENTRIES).map(([name, file]) => [name, join(SITE, file)]));
  await esbuild.build({
    plugins: [siteGlue],
    logOverride: SITE_LOG_OVERRIDE,
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
  // The engine worker on threads and its thread workers: bundles of their
  // own (no shared chunks: their glue is the wasm with shared memory's).
  await esbuild.build({
    plugins: [siteThreadsGlue],
    logOverride: SITE_LOG_OVERRIDE,
    entryPoints: { 'worker-threads': join(SITE, 'src', 'engine', 'worker-threads.js'), 'thread-worker': join(SITE, 'src', 'engine', 'thread-worker.js') },
    bundle: true,
    format: 'esm',
    minify: true,
    sourcemap: true,
    target: 'es2022',
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

/** Builds pkg/, site/pkg/ and the site. `siteOnly` reuses existing wasm builds. */
export async function build({ siteOnly = false } = {}) {
  heading(siteOnly ? 'build: site (reusing pkg/ and site/pkg/)' : 'build: wasm packages and site');
  const built =
    PKG_FILES.every((f) => existsSync(join(PKG, f)) && existsSync(join(SITE_PKG, f))) &&
    CHECK_FILES.every((f) => existsSync(join(SITE_CHECK_PKG, f))) &&
    existsSync(join(SITE_PKG_THREADS, 'gdlkit.js'));
  if (!siteOnly || !built) {
    await buildWasm();
  }
  await buildSite();
  await bundleSite();
  await bundleCheckWorker();
  await buildStandalone();
}

if (isMain(import.meta.url)) {
  try {
    await setup();
    await build({ siteOnly: hasFlag('--site-only') });
  } catch (e) {
    console.error(`build failed: ${e.message}`);
    process.exit(1);
  }
}
