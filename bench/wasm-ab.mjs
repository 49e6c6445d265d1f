// Two or more wasm builds of the npm package side by side (for choosing
// the wasm's build flags): random playouts of the same `gdlkit bench GAME
// --engine E` in Node and in headless Chromium, the builds taking turns
// round after round, so that a loaded machine slows all of them alike,
// each after a warm-up (V8 compiles hot wasm functions with its optimising
// tier after a while, later under load). Prints per game and runtime each
// build's median and best, and the median of the per-round ratios to the
// first build (the reference).
//
// Wall time by default (`--seconds S` per cell). `--cpu N` counts CPU time
// instead, for a loaded machine where wall-clock differences of a few
// percent are noise: each cell plays `bench --playouts N` and then 2N (same
// seed: the same playouts) and divides N by the difference of their CPU
// times, so that loading and grounding cancel out: playouts per CPU-second
// of the process (Node: process.cpuUsage(), all its threads; Chromium: the
// renderer processes' cpuTime from the DevTools protocol, in 10 ms steps,
// so N should take a few CPU-seconds).
//
// Needs the builds' directories (wasm-bindgen's --target web output, as
// `npm run build` writes pkg/): e.g. main's pkg/ copied aside and this
// tree's.
//
// Usage: node bench/wasm-ab.mjs --pkgs A,B[,…] [--names a,b,…] [--games g,…]
//          [--runtimes node,chromium] [--engine fast] [--seconds S] [--rounds N]
//          [--cpu N | --cpu game=N,…]

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, '..', 'shared', 'games', 'repository');

const list = (value) => value.split(',').map((s) => s.trim()).filter(Boolean);

function parseArgs(argv) {
  const o = { pkgs: [], names: null, games: null, runtimes: ['node', 'chromium'], engine: 'fast', seconds: 2, rounds: 5, cpu: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[++i];
    if (v === undefined) throw new Error(`${a} needs a value`);
    if (a === '--pkgs') o.pkgs = list(v).map((p) => resolve(p));
    else if (a === '--names') o.names = list(v);
    else if (a === '--games') o.games = list(v);
    else if (a === '--runtimes') o.runtimes = list(v);
    else if (a === '--engine') o.engine = v;
    else if (a === '--seconds') o.seconds = Number(v);
    else if (a === '--rounds') o.rounds = Number(v);
    else if (a === '--cpu') o.cpu = v;
    else throw new Error(`unknown option ${a}`);
  }
  if (o.pkgs.length < 1) throw new Error('--pkgs A,B: at least one build');
  for (const p of o.pkgs) if (!existsSync(join(p, 'gdlkit_bg.wasm'))) throw new Error(`${p}/gdlkit_bg.wasm is missing`);
  o.names ??= o.pkgs.map((p) => (basename(p) === 'pkg' ? basename(dirname(p)) : basename(p)));
  if (o.names.length !== o.pkgs.length) throw new Error('--names needs one name per build');
  for (const r of o.runtimes) if (!['node', 'chromium'].includes(r)) throw new Error(`--runtimes: node or chromium, not ${r}`);
  if (!(o.seconds > 0 && o.seconds <= 60)) throw new Error('--seconds wants a number in (0, 60]');
  if (!(Number.isInteger(o.rounds) && o.rounds >= 1)) throw new Error('--rounds wants a positive integer');
  const fromCorpus = existsSync(CORPUS);
  const names = o.games ?? (fromCorpus ? ['ticTacToe', 'connectFour', 'breakthrough', 'reversi'] : ['ticTacToe', 'connectFour', 'breakthrough']);
  o.games = names.map((g) => (g.endsWith('.kif') ? { name: basename(g, '.kif'), file: resolve(g) } : { name: g, file: join(fromCorpus ? CORPUS : join(ROOT, 'games'), `${g}.kif`) }));
  for (const g of o.games) if (!existsSync(g.file)) throw new Error(`no such game: ${g.file}`);
  if (o.cpu !== null) {
    // `N` for every game, or `game=N,…`.
    const counts = Object.fromEntries(list(o.cpu).map((x) => (x.includes('=') ? x.split('=') : ['*', x])));
    for (const g of o.games) {
      g.playouts = Number(counts[g.name] ?? counts['*']);
      if (!(Number.isInteger(g.playouts) && g.playouts > 0)) throw new Error(`--cpu: no playout count for ${g.name}`);
    }
  }
  return o;
}

/** Playouts per second from a JSON line `{engine, playouts_per_second}`, checking the engine that ran. */
function pps(label, code, stdout, stderr, engine) {
  if (code !== 0) throw new Error(`${label} failed: ${stderr.trim()}`);
  const json = JSON.parse(stdout.trim().split('\n').at(-1));
  if (engine !== 'auto' && json.engine !== engine) throw new Error(`${label} ran ${json.engine}, not ${engine}`);
  return json.playouts_per_second;
}

/**
 * One Node process per cell: the wasm loaded, a 1 s warm-up bench, then the
 * measured one (wall time), or N and 2N playouts (CPU time).
 */
const NODE_CELL = `
const [pkg, file, seconds, engine, playouts] = process.argv.slice(1);
const { readFileSync } = await import('node:fs');
const { pathToFileURL } = await import('node:url');
const { initSync, runCli } = await import(pathToFileURL(pkg + '/gdlkit.js').href);
initSync({ module: readFileSync(pkg + '/gdlkit_bg.wasm') });
const bench = (more) => {
  const r = runCli(['bench', file, '--engine', engine, ...more], (path) => readFileSync(path, 'utf8'));
  if (r.code !== 0) {
    process.stderr.write(r.stderr);
    process.exit(r.code || 1);
  }
  return JSON.parse(r.stdout);
};
bench(['--seconds', '1']);
if (playouts === '0') {
  process.stdout.write(JSON.stringify(bench(['--seconds', seconds])));
} else {
  const cpu = (n) => {
    const t = process.cpuUsage();
    const r = bench(['--playouts', String(n), '--seconds', '600']);
    const d = process.cpuUsage(t);
    return { seconds: (d.user + d.system) / 1e6, engine: r.engine };
  };
  const one = cpu(Number(playouts));
  const two = cpu(2 * Number(playouts));
  process.stdout.write(JSON.stringify({ engine: two.engine, playouts_per_second: Number(playouts) / (two.seconds - one.seconds) }));
}
`;

function nodeCell(o, pkg, game) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', NODE_CELL, pkg, game.file, String(o.seconds), o.engine, String(game.playouts ?? 0)], { encoding: 'utf8' });
  return pps(`node ${game.name} ${pkg}`, r.status, r.stdout, r.stderr || r.error?.message || '', o.engine);
}

/** One Chromium page per build, each with its wasm loaded and warmed up. */
async function chromiumPages(o) {
  const [{ chromium }, { serve }, { browserPaths }, { CHROMIUM_ARGS }] = await Promise.all([
    import('playwright-core'),
    import('../scripts/serve.mjs'),
    import('../scripts/setup.mjs'),
    import('../scripts/lib.mjs'),
  ]);
  const browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
  const servers = [];
  const pages = [];
  for (const pkg of o.pkgs) {
    const { server, url } = await serve({ root: pkg, port: 0, quiet: true });
    servers.push(server);
    const page = await browser.newPage({ serviceWorkers: 'block' });
    await page.goto(new URL('gdlkit.d.ts', url).href);
    await page.evaluate(async () => {
      const m = await import('/gdlkit.js');
      await m.default({ module_or_path: '/gdlkit_bg.wasm' });
      window.gdlkit = m;
    });
    pages.push(page);
  }
  const bench = async (k, game, more) => {
    const text = readFileSync(game.file, 'utf8');
    const r = await pages[k].evaluate(({ text, args }) => window.gdlkit.runCli(['bench', 'game.kif', ...args], { 'game.kif': text }), { text, args: ['--engine', o.engine, ...more] });
    if (r.code !== 0) throw new Error(`chromium ${game.name} ${o.names[k]} failed: ${r.stderr.trim()}`);
    return JSON.parse(r.stdout);
  };
  for (const k of pages.keys()) for (const game of o.games) await bench(k, game, ['--seconds', '1']);
  const cdp = await browser.newBrowserCDPSession();
  /** CPU seconds of the renderer processes so far. */
  const rendererCpu = async () => (await cdp.send('SystemInfo.getProcessInfo')).processInfo.filter((p) => p.type === 'renderer').reduce((t, p) => t + p.cpuTime, 0);
  const cpu = async (k, game, n) => {
    const t = await rendererCpu();
    const r = await bench(k, game, ['--playouts', String(n), '--seconds', '600']);
    return { seconds: (await rendererCpu()) - t, engine: r.engine };
  };
  return {
    version: browser.version(),
    run: async (k, game) => {
      const label = `chromium ${game.name} ${o.names[k]}`;
      if (!game.playouts) return pps(label, 0, JSON.stringify(await bench(k, game, ['--seconds', String(o.seconds)])), '', o.engine);
      const one = await cpu(k, game, game.playouts);
      const two = await cpu(k, game, 2 * game.playouts);
      return pps(label, 0, JSON.stringify({ engine: two.engine, playouts_per_second: game.playouts / (two.seconds - one.seconds) }), '', o.engine);
    },
    close: async () => {
      await browser.close();
      for (const s of servers) s.close();
    },
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  for (const [k, p] of o.pkgs.entries()) {
    const wasm = readFileSync(join(p, 'gdlkit_bg.wasm'));
    console.log(`${o.names[k]}: ${p} (${fmt(statSync(join(p, 'gdlkit_bg.wasm')).size)} bytes, gzip -9 ${fmt(gzipSync(wasm, { level: 9 }).length)})`);
  }
  const loadBefore = load();
  const chromium = o.runtimes.includes('chromium') ? await chromiumPages(o) : null;
  // results[runtime][game][k]: playouts per second of each round
  const results = Object.fromEntries(o.runtimes.map((r) => [r, Object.fromEntries(o.games.map((g) => [g.name, o.pkgs.map(() => [])]))]));
  try {
    for (let round = 0; round < o.rounds; round++) {
      for (const runtime of o.runtimes) {
        for (const game of o.games) {
          const cell = results[runtime][game.name];
          // Alternate which build goes first, round by round.
          const order = o.pkgs.map((_, k) => k);
          if (round % 2) order.reverse();
          for (const k of order) {
            cell[k].push(runtime === 'node' ? nodeCell(o, o.pkgs[k], game) : await chromium.run(k, game));
            process.stderr.write('.');
          }
        }
      }
    }
  } finally {
    await chromium?.close();
  }
  process.stderr.write('\n');
  const what = o.cpu ? `per CPU-second, --playouts ${o.games.map((g) => `${g.name}=${g.playouts}`).join(',')} and twice that per cell` : `per second, ${o.seconds} s per cell`;
  console.log(`\nRandom playouts ${what} (${o.engine} engine), ${o.rounds} rounds, builds alternating; load average ${loadBefore} before, ${load()} after`);
  console.log(`Node ${process.version}${chromium ? `, Chromium ${chromium.version}` : ''}\n`);
  const others = o.names.slice(1);
  console.log(`| game | runtime | ${o.names.map((n) => `${n} median (best)`).join(' | ')} |${others.map((n) => ` ${n} / ${o.names[0]} |`).join('')}`);
  console.log(`|---|---|${o.names.map(() => '---:|').join('')}${others.map(() => '---:|').join('')}`);
  for (const game of o.games) {
    for (const runtime of o.runtimes) {
      const cell = results[runtime][game.name];
      const ratios = cell.slice(1).map((xs) => median(xs.map((x, i) => x / cell[0][i])).toFixed(3));
      console.log(`| ${game.name} | ${runtime} | ${cell.map((xs) => `${fmt(median(xs))} (${fmt(Math.max(...xs))})`).join(' | ')} |${ratios.map((r) => ` ${r} |`).join('')}`);
    }
  }
}

main().catch((e) => {
  console.error(`wasm-ab failed: ${e.message}`);
  process.exit(1);
});
