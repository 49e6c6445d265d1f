// Every corpus game's engine and figures ("Done when"): per game
// of ../shared/games/repository/, grounding time and peak memory, network
// size, random playouts per second on the fast engine and on the
// interpreter, and the engine `--engine auto` picks (or why it falls back).
// Prints a Markdown table, with the machine's load before and after.
//
//   cargo build --release --example ground_stats
//   node bench/corpus.mjs [--seconds S] [--budget-ms MS] [--games a,b,…] > /tmp/corpus.md
//
// Each game runs in its own process: `ground_stats` with
// GDLKIT_PLAYOUT_SECS=S (S seconds on each engine, in the same process)
// and GDLKIT_GROUND_MS=MS (default 60,000: the issue's 60 s), killed after
// MS + 60 s; a game that does not ground gets S seconds of the interpreter
// through `gdlkit bench --engine interpreter` (the release binary).
// Not part of `npm test`: it takes ~15 minutes on an idle machine.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, '..', 'shared', 'games', 'repository');
const STATS = join(ROOT, 'target', 'release', 'examples', 'ground_stats');
const GDLKIT = join(ROOT, 'target', 'release', 'gdlkit');

function options(argv) {
  const o = { seconds: 1, budgetMs: 60000, games: null };
  for (let i = 0; i < argv.length; i += 2) {
    const [k, v] = [argv[i], argv[i + 1]];
    if (k === '--seconds') o.seconds = Number(v);
    else if (k === '--budget-ms') o.budgetMs = Number(v);
    else if (k === '--games') o.games = v.split(',');
    else throw new Error(`unknown option ${k}`);
  }
  return o;
}

/** Runs `cmd` with `/usr/bin/time`: its stdout lines as JSON and the peak RSS in MB. */
function run(cmd, args, env, timeoutMs) {
  const r = spawnSync('/usr/bin/time', ['-f', 'rss_kb %M', cmd, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs });
  const rss = /rss_kb (\d+)/.exec(r.stderr ?? '');
  const lines = (r.stdout ?? '').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { lines, rssMb: rss ? Math.round(Number(rss[1]) / 1024) : null, killed: r.error?.code === 'ETIMEDOUT' };
}

/** One game's row. */
function measure(file, o) {
  const env = { GDLKIT_PLAYOUT_SECS: String(o.seconds), GDLKIT_GROUND_MS: String(o.budgetMs) };
  const r = run(STATS, [file], env, o.budgetMs + 60000 + 4 * o.seconds * 1000);
  const all = Object.assign({}, ...r.lines);
  const row = { ...all, game: basename(file, '.kif'), rssMb: r.rssMb };
  if (r.killed) row.fallback = `killed after ${Math.round((o.budgetMs + 60000) / 1000)} s`;
  if (row.fallback || row.error) {
    const b = run(GDLKIT, ['bench', file, '--seconds', String(o.seconds), '--engine', 'interpreter'], {}, 120000);
    row.interpreter_playouts_per_s = b.lines[0]?.playouts_per_second;
  }
  return row;
}

const fmt = (x, digits = 0) => (x == null || Number.isNaN(x) ? '' : Number(x).toLocaleString('en-US', { maximumFractionDigits: digits }));

function table(rows) {
  const out = ['| game | engine (auto) | grounding ms | peak RSS MB | nodes | fast playouts/s | interpreter playouts/s | fast / interpreter |', '|---|---|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) {
    const engine = r.error ? `invalid (${r.error})` : r.fallback ? `interpreter: ${r.fallback}` : r.auto === 'fast' ? 'fast' : `interpreter (trial: ${r.why || 'slower'})`;
    out.push(`| ${r.game} | ${engine} | ${fmt(r.ms)} | ${fmt(r.rssMb)} | ${fmt(r.nodes)} | ${fmt(r.fast_playouts_per_s)} | ${fmt(r.interpreter_playouts_per_s, 1)} | ${r.ratio == null ? '' : `${fmt(r.ratio, 2)}×`} |`);
  }
  return out.join('\n');
}

const o = options(process.argv.slice(2));
for (const needed of [STATS, GDLKIT]) {
  if (!existsSync(needed)) throw new Error(`${needed} is missing: cargo build --release --bin gdlkit --example ground_stats`);
}
const games = o.games ?? readdirSync(CORPUS).filter((f) => f.endsWith('.kif')).map((f) => basename(f, '.kif')).sort();
const before = loadavg().map((x) => x.toFixed(2)).join(' ');
const started = new Date().toISOString();
const rows = [];
for (const g of games) {
  process.stderr.write(`${rows.length + 1}/${games.length} ${g}\n`);
  rows.push(measure(join(CORPUS, `${g}.kif`), o));
}
const grounded = rows.filter((r) => !r.fallback && !r.error);
console.log(`${started}, ${o.seconds} s per engine and game, grounding budget ${o.budgetMs / 1000} s; load ${before} before, ${loadavg().map((x) => x.toFixed(2)).join(' ')} after.`);
console.log(`${rows.length} games: ${grounded.length} ground, ${grounded.filter((r) => r.auto === 'fast').length} of them run on the fast engine under \`--engine auto\`, ${rows.length - grounded.length} fall back.\n`);
console.log(table(rows));
