// Summarises the JSON written by bench/players.sh: match chunks (NAME-sN.json,
// one per seed) are pooled per figure; speed runs (NAME-speed-*.json with
// the CPU seconds in NAME.cpu) print per wall and per CPU second.
// Usage: node bench/players-summary.mjs [OUT_DIR]   (default /tmp/gdlkit-players)

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '/tmp/gdlkit-players';
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

function read(f) {
  try {
    return JSON.parse(readFileSync(join(dir, f), 'utf8'));
  } catch {
    return null; // an interrupted run: reported as missing
  }
}

// Same interval as gdlkit's matches: mean ± 1.96·s/√n, clipped to 0..100.
function meanCi(xs) {
  const n = xs.length;
  if (n === 0) return [0, 0, 0];
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return [mean, mean, mean];
  const v = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  const h = 1.96 * Math.sqrt(v / n);
  return [mean, Math.max(0, mean - h), Math.min(100, mean + h)];
}

const r1 = (x) => Math.round(x * 10) / 10;
const figures = new Map();
for (const f of files.filter((f) => !f.includes('-speed-'))) {
  const key = f.replace(/-s\d+\.json$/, '').replace(/\.json$/, '');
  const j = read(f);
  if (!j) {
    console.log(`${f}: missing or incomplete`);
    continue;
  }
  if (!figures.has(key)) figures.set(key, { engine: new Set(), seeds: [], players: null });
  const fig = figures.get(key);
  fig.engine.add(j.engine + (j.engine_fallback ? ` (fallback: ${j.engine_fallback})` : ''));
  fig.seeds.push(j.seed);
  fig.players ??= j.players.map((p) => ({ name: p.name, goals: [], w: 0, d: 0, l: 0, moves: 0, msPerMove: [] }));
  j.players.forEach((p, i) => {
    const acc = fig.players[i];
    acc.w += p.wins;
    acc.d += p.draws;
    acc.l += p.losses;
    acc.msPerMove.push([p.ms_per_move, p.moves]);
    acc.moves += p.moves;
  });
  for (const g of j.results) {
    g.seats.forEach((player, role) => {
      fig.players[player].goals.push(g.goals[role]);
    });
  }
}
for (const [key, fig] of figures) {
  console.log(`${key}: engine ${[...fig.engine].join(', ')}, seeds ${fig.seeds.join(' ')}`);
  for (const p of fig.players) {
    const [m, lo, hi] = meanCi(p.goals);
    const ms = p.moves ? p.msPerMove.reduce((a, [x, n]) => a + x * n, 0) / p.moves : 0;
    console.log(`  ${p.name.padEnd(34)} ${p.w} / ${p.d} / ${p.l} of ${p.goals.length}, mean ${r1(m)} [${r1(lo)}, ${r1(hi)}], ${r1(ms)} ms/move`);
  }
}
for (const f of files.filter((f) => f.includes('-speed-'))) {
  const j = read(f);
  const cpuFile = join(dir, f.replace(/\.json$/, '.cpu'));
  const cpu = existsSync(cpuFile)
    ? readFileSync(cpuFile, 'utf8').trim().split('\n').pop().split(/\s+/).map(Number).reduce((a, b) => a + b, 0)
    : NaN;
  if (!j) {
    console.log(`${f}: missing or incomplete`);
    continue;
  }
  const s = j.stats;
  const count = j.algorithm === 'mcts' ? s.playouts : s.nodes;
  const what = j.algorithm === 'mcts' ? 'playouts' : 'nodes';
  const wall = (count * 1000) / s.elapsed_ms;
  console.log(
    `${f.replace(/\.json$/, '')}: engine ${j.engine}, ${count} ${what} in ${r1(s.elapsed_ms)} ms, ${Math.round(wall)}/wall s, ` +
      `${Math.round(count / cpu)}/CPU s (${r1(cpu)} CPU s), depth ${s.depth}`,
  );
}
