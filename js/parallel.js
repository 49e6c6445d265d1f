// Root-parallel MCTS over several workers, transport only: each
// worker (a `gdlkit/worker` GdlWorker: a Web Worker in the page, a
// worker_threads thread in Node) runs `mctsRoot` (an MCTS search from the
// state, its own seed), then one of them runs `mctsChoose` (the merge and
// the move choice, in Rust). Messages only: no SharedArrayBuffer, so static
// hosts without isolation headers work.

/** The cores to use for `cores: auto`: `navigator.hardwareConcurrency` (browsers, Node 21+), else 1. */
export function autoCores() {
  return Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1);
}

/**
 * One move of a parallel search. `workers`: GdlWorker instances (one per
 * core); params: `{kif, spec ("mcts-solver:ms=500", "mcts:ms=500" or
 * "alphabeta:ms=500"; default: the default player), seed,
 * engine, fluents, role}`. MCTS resolves to `{move, value, merged: {moves,
 * visits, totals, playouts}, stats: [per worker]}`; alpha-beta (lazy SMP,
 * worker `i` is helper `i` with its own table) to `{worker, move, value,
 * solved, depth, stats: [per worker]}`.
 */
export async function parallelBestMove(workers, { kif, spec, seed = 1, engine, fluents, role = 0 }) {
  if (!workers.length) {
    throw new TypeError('parallelBestMove: give at least one worker');
  }
  if (typeof spec === 'string' && /^\s*alpha-?beta\b/i.test(spec)) {
    const parts = await Promise.all(
      workers.map((w, worker) => w.run('alphabetaRoot', { kif, spec, worker, engine, fluents, role })),
    );
    const choice = await workers[0].run('alphabetaChoose', { parts: parts.map(({ stats, ...result }) => result) });
    return { ...choice, stats: parts.map((p) => p.stats) };
  }
  const parts = await Promise.all(
    workers.map((w, worker) => w.run('mctsRoot', { kif, spec, seed, worker, engine, fluents, role })),
  );
  const choice = await workers[0].run('mctsChoose', { parts: parts.map(({ stats, ...root }) => root) });
  return { ...choice, stats: parts.map((p) => p.stats) };
}

/**
 * One move of the ensemble player with its members at once, one
 * per worker (member i on `workers[i % workers.length]`): each runs
 * `ensembleMember` (one alpha-beta search, one evaluation function), then
 * `ensembleChoose` applies the lecture's rule (Rust). params: `{kif, spec
 * ("ensemble:ms=500"), engine, fluents, role}`. Resolves to `{move, index,
 * heuristic, parts: [member results]}`.
 */
export async function parallelEnsembleMove(workers, { kif, spec = 'ensemble', engine, fluents, role = 0 }) {
  if (!workers.length) {
    throw new TypeError('parallelEnsembleMove: give at least one worker');
  }
  const members = await workers[0].run('ensembleMembers', { kif, spec, engine });
  const parts = await Promise.all(
    members.map((_h, member) => workers[member % workers.length].run('ensembleMember', { kif, spec, member, engine, fluents, role })),
  );
  const choice = await workers[0].run('ensembleChoose', { parts });
  return { ...choice, parts };
}
