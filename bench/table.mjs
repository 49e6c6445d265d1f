// The side-by-side speed table (`npm run bench:table`):
// random playouts per second per game, for the fast engine and the
// interpreter, natively, in Node (wasm) and in headless Chromium (wasm),
// with the machine's load before and after. Every cell runs the same
// command, `gdlkit bench GAME --seconds S --engine E`: the native binary,
// the npm package's wasm through `runCli` (scripts/bench-wasm.mjs), and
// that same wasm in a Chromium page. The README's speed claims come from
// this table.
//
// With `--champion` and ../shared present, ../shared/bench/champion.py
// adds the native fast engine's ratio to the 2014 champion (Sancho).
//
// Needs `npm run build` (pkg/) for the wasm cells and a release binary for
// the native ones (built with `cargo build --release -p gdlkit-cli` when missing).
// Not part of `npm test` (tests/bench-table.test.mjs checks its arguments).
//
// Usage: node bench/table.mjs [--seconds S] [--games a,b,…] [--engines fast,interpreter]
//          [--runtimes native,node,chromium] [--native PATH] [--pkg DIR] [--champion] [--dry-run]
//   --games     names from ../shared/games/repository when it exists (default: the
//               champion's four), else from games/ (default: ticTacToe, connectFour,
//               breakthrough); a path to a .kif file also works
//   --dry-run   print the cells it would run and stop

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = join(ROOT, '..', 'shared');
const CORPUS = join(SHARED, 'games', 'repository');
const RUNTIMES = ['native', 'node', 'chromium'];
const ENGINES = ['fast', 'interpreter'];

const list = (value) => value.split(',').map((s) => s.trim()).filter(Boolean);

/** The options from `argv` (without node and the script); throws a usage error. */
export function parseArgs(argv, { corpus = CORPUS } = {}) {
  const o = { seconds: 2, engines: ENGINES, runtimes: RUNTIMES, native: join(ROOT, 'target', 'release', 'gdlkit'), pkg: join(ROOT, 'pkg'), champion: false, dryRun: false, games: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--seconds') {
      o.seconds = Number(value());
      if (!(o.seconds > 0 && o.seconds <= 600)) throw new Error(`--seconds wants a number in (0, 600], not ${argv[i]}`);
    } else if (a === '--games') o.games = list(value());
    else if (a === '--engines') o.engines = list(value());
    else if (a === '--runtimes') o.runtimes = list(value());
    else if (a === '--native') o.native = resolve(value());
    else if (a === '--pkg') o.pkg = resolve(value());
    else if (a === '--champion') o.champion = true;
    else if (a === '--dry-run') o.dryRun = true;
    else throw new Error(`unknown option ${a}`);
  }
  for (const e of o.engines) if (!ENGINES.includes(e)) throw new Error(`--engines: unknown engine ${e} (fast, interpreter)`);
  for (const r of o.runtimes) if (!RUNTIMES.includes(r)) throw new Error(`--runtimes: unknown runtime ${r} (native, node, chromium)`);
  const fromCorpus = existsSync(corpus);
  const names = o.games ?? (fromCorpus ? ['ticTacToe', 'connectFour', 'breakthrough', 'reversi'] : ['ticTacToe', 'connectFour', 'breakthrough']);
  o.games = names.map((g) => {
    if (g.endsWith('.kif')) return { name: basename(g, '.kif'), file: resolve(g) };
    return { name: g, file: join(fromCorpus ? corpus : join(ROOT, 'games'), `${g}.kif`) };
  });
  for (const g of o.games) if (!existsSync(g.file)) throw new Error(`no such game: ${g.file}`);
  if (o.games.length === 0 || o.engines.length === 0 || o.runtimes.length === 0) throw new Error('nothing to run');
  return o;
}

/** `{pps, engine}` from a `gdlkit bench` JSON line, or an error with the command's stderr. */
function benchResult(label, r) {
  if (r.status !== 0) throw new Error(`${label} failed: ${(r.stderr || r.error?.message || '').trim()}`);
  const line = r.stdout.trim().split('\n').at(-1);
  const json = JSON.parse(line);
  return { pps: json.playouts_per_second, engine: json.engine };
}

function native(o, game, engine) {
  const r = spawnSync(o.native, ['bench', game.file, '--seconds', String(o.seconds), '--engine', engine], { encoding: 'utf8' });
  return benchResult(`native ${game.name} ${engine}`, r);
}

function node(o, game, engine) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'bench-wasm.mjs'), game.file, '--seconds', String(o.seconds), '--engine', engine, '--pkg', o.pkg], { encoding: 'utf8' });
  return benchResult(`node ${game.name} ${engine}`, r);
}

/** A Chromium page with the npm package's wasm loaded: `run(game, engine)`. */
async function chromiumRunner(o) {
  const [{ chromium }, { serve }, { browserPaths }, { CHROMIUM_ARGS }] = await Promise.all([
    import('playwright-core'),
    import('../scripts/serve.mjs'),
    import('../scripts/setup.mjs'),
    import('../scripts/lib.mjs'),
  ]);
  const { server, url } = await serve({ root: o.pkg, port: 0, quiet: true });
  const browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ serviceWorkers: 'block' });
  await page.goto(new URL('gdlkit.d.ts', url).href);
  await page.evaluate(async () => {
    const m = await import('/gdlkit.js');
    await m.default({ module_or_path: '/gdlkit_bg.wasm' });
    window.gdlkit = m;
  });
  return {
    version: browser.version(),
    run: async (game, engine) => {
      const text = readFileSync(game.file, 'utf8');
      const r = await page.evaluate(({ text, seconds, engine }) => window.gdlkit.runCli(['bench', 'game.kif', '--seconds', String(seconds), '--engine', engine], { 'game.kif': text }), { text, seconds: o.seconds, engine });
      return benchResult(`chromium ${game.name} ${engine}`, { status: r.code, stdout: r.stdout, stderr: r.stderr });
    },
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const fmt = (n) => (n === undefined ? '–' : Math.round(n).toLocaleString('en-US'));

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const cells = o.games.length * o.engines.length * o.runtimes.length;
  console.log(`${cells} cells of ${o.seconds} s: games ${o.games.map((g) => g.name).join(', ')}; engines ${o.engines.join(', ')}; runtimes ${o.runtimes.join(', ')}`);
  if (o.dryRun) return;
  if (o.runtimes.includes('native') && !existsSync(o.native)) {
    console.log(`${o.native} is missing: cargo build --release -p gdlkit-cli`);
    const b = spawnSync('cargo', ['build', '--release', '-p', 'gdlkit-cli'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('cargo build failed');
  }
  const wasm = o.runtimes.some((r) => r !== 'native');
  if (wasm && !existsSync(join(o.pkg, 'gdlkit_bg.wasm'))) throw new Error(`${o.pkg}/gdlkit_bg.wasm is missing: run \`npm run build\``);
  const loadBefore = load();
  const browser = o.runtimes.includes('chromium') ? await chromiumRunner(o) : null;
  const rows = [];
  try {
    for (const game of o.games) {
      for (const engine of o.engines) {
        const row = { game: game.name, engine };
        for (const runtime of o.runtimes) {
          const r = runtime === 'native' ? native(o, game, engine) : runtime === 'node' ? node(o, game, engine) : await browser.run(game, engine);
          row[runtime] = r.pps;
          row.used = r.engine; // `fast` falls back to the interpreter on games it cannot ground
          process.stderr.write('.');
        }
        rows.push(row);
      }
    }
  } finally {
    await browser?.close();
  }
  process.stderr.write('\n');
  const names = { native: 'native', node: `Node ${process.version} (wasm)`, chromium: `Chromium ${browser?.version ?? ''} (wasm)`.replace('  ', ' ') };
  console.log(`\nRandom playouts per second, ${o.seconds} s per cell, one core; load average ${loadBefore} before, ${load()} after`);
  console.log(`(\`npm run bench:table -- --seconds ${o.seconds}\`; figures under load are noise for speed)\n`);
  const ratios = o.runtimes.filter((r) => r !== 'native' && o.runtimes.includes('native'));
  console.log(`| game | engine | ${o.runtimes.map((r) => names[r]).join(' | ')} |${ratios.map((r) => ` ${r} / native |`).join('')}`);
  console.log(`|---|---|${o.runtimes.map(() => '---:|').join('')}${ratios.map(() => '---:|').join('')}`);
  for (const row of rows) {
    const engine = row.used === row.engine ? row.engine : `${row.engine} (ran ${row.used})`;
    console.log(`| ${row.game} | ${engine} | ${o.runtimes.map((r) => fmt(row[r])).join(' | ')} |${ratios.map((r) => ` ${(row[r] / row.native).toFixed(2)} |`).join('')}`);
  }
  if (o.engines.length === 2) {
    console.log('\nfast / interpreter:');
    for (const game of o.games) {
      const [f, i] = o.engines.map((e) => rows.find((r) => r.game === game.name && r.engine === e));
      console.log(`  ${game.name}: ${o.runtimes.map((r) => `${r} ${(f[r] / i[r]).toFixed(1)}×`).join(', ')}`);
    }
  }
  if (o.champion) champion(o);
}

/** ../shared/bench/champion.py for the native fast engine, when ../shared exists. */
function champion(o) {
  const script = join(SHARED, 'bench', 'champion.py');
  if (!existsSync(script)) {
    console.log(`\n(${script} not found: no champion ratio)`);
    return;
  }
  console.log(`\nAgainst the 2014 champion (Sancho), native fast engine (${script}, ±15%):`);
  const r = spawnSync('python3', [script, o.native, String(o.seconds), '--engine', 'fast'], { encoding: 'utf8' });
  process.stdout.write(r.stdout);
  if (r.status !== 0) console.log(`champion.py failed: ${r.stderr.trim()}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`bench:table failed: ${e.message}`);
    process.exit(1);
  });
}
