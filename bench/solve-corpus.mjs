// Solves every game of the project's library and the shared corpus with a
// time limit and prints one line per game (tab-separated): complete or
// partial or refused, states, states per second, bytes per state, peak MB,
// seconds, path. The largest complete ones are the "largest game solved"
// figure of BENCHMARKS.md (bench/solving.md).
//
// Usage: node bench/solve-corpus.mjs BINARY SECONDS [GAME...]
//   BINARY   a native gdlkit (target/release/gdlkit), `wasm` for the npm
//            package's solve() in this Node process (after npm run build),
//            or `wasm-threads` for the wasm with shared memory on every
//            core (gdlkit/threads: the solver's cores are worker threads)
//   GAME...  default: games/*.kif and $GDLKIT_SHARED/games/**/*.kif

import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function kifs(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...kifs(p));
    else if (name.endsWith('.kif')) out.push(p);
  }
  return out;
}

let threaded = null;

/** A solve on the wasm with threads, stepped as js/solve.js steps. */
async function solveThreaded(kif, options) {
  threaded ??= await (await import('../js/threads-node.js')).loadThreaded();
  const job = new threaded.wasm.SolveJob(kif, options);
  try {
    while (!job.step(1 << 20).done) {
      // each step expands up to 2^20 states
    }
    return job.summary();
  } finally {
    job.free();
  }
}

/** The summary of one solve (snake_case natively, camelCase in wasm), or {refused}. */
async function solveOne(binary, seconds, path) {
  if (binary === 'wasm-threads') {
    try {
      return await solveThreaded(readFileSync(path, 'utf8'), { seconds });
    } catch (e) {
      return { refused: e.message };
    }
  }
  if (binary === 'wasm') {
    const { solve } = await import('../js/node.js');
    try {
      return solve(readFileSync(path, 'utf8'), { seconds });
    } catch (e) {
      return { refused: e.message };
    }
  }
  const r = spawnSync(binary, ['solve', path, '--seconds', String(seconds), '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  try {
    return JSON.parse(r.stdout);
  } catch {
    return { refused: (r.stderr || r.stdout).trim().split('\n')[0] };
  }
}

const [binary, seconds = '5', ...games] = process.argv.slice(2);
if (!binary) {
  console.error('usage: node bench/solve-corpus.mjs BINARY|wasm SECONDS [GAME...]');
  process.exit(2);
}
const shared = process.env.GDLKIT_SHARED ?? join(import.meta.dirname, '..', '..', 'shared');
const list = games.length ? games : [...kifs(join(import.meta.dirname, '..', 'games')), ...kifs(join(shared, 'games'))];
for (const path of list) {
  const s = await solveOne(binary, Number(seconds), path);
  if (s.refused !== undefined) {
    console.log(['refused', '', '', '', '', '', path, s.refused.slice(0, 100)].join('\t'));
    continue;
  }
  const st = s.stats;
  const f = (v, d = 0) => Number(v).toFixed(d);
  console.log([
    s.complete ? 'complete' : `partial`,
    st.states,
    f(st.states_per_second ?? st.statesPerSecond),
    f(st.bytes_per_state ?? st.bytesPerState, 1),
    f((st.peak_bytes ?? st.peakBytes) / 1e6, 1),
    f(st.seconds, 2),
    path,
    s.complete ? JSON.stringify(s.initial?.goals ?? null) : (s.stopped ?? ''),
  ].join('\t'));
}
await threaded?.terminate();
