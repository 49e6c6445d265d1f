// Root-parallel MCTS over Node worker threads: two GdlWorkers
// each search with their own seed (an `MctsWorker` each, its tree kept
// from move to move), the Rust merge picks the move; the result equals
// the same two `MctsWorker`s run in this thread and merged with
// `mctsChoose`, move after move; the merged statistics are the sum of the
// workers'. Runs on the wasm build in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';

test('parallelBestMove on worker threads = the same MctsWorkers in this thread, move after move', async () => {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const gdl = await import('../js/node.js');
  const { GdlWorker } = await import('../js/worker-node.js');
  const kif = readFileSync(join(ROOT, 'games', 'connectFour.kif'), 'utf8');
  const spec = 'mcts:playouts=300';
  const seed = 5;
  const game = new gdl.Game(kif);
  const here = [0, 1].map((worker) => new gdl.MctsWorker(kif, spec, { seed, worker }));
  const workers = [new GdlWorker(), new GdlWorker()];
  try {
    let state = game.initialState();
    let plies = 0;
    for (; plies < 4 && !game.isTerminal(state); plies += 1) {
      const fluents = game.fluents(state);
      const role = game.roles().findIndex((r) => game.legalMoves(state, r).length > 1);
      const got = await gdl.parallelBestMove(workers, { kif, spec, seed, fluents, role });
      const parts = here.map((w) => {
        const { stats: _s, ...root } = w.rootStats(fluents, role);
        return root;
      });
      const want = gdl.mctsChoose(parts).move;
      assert.equal(got.move, want, `ply ${plies}`);
      assert.ok(game.legalMoves(state, role).includes(got.move));
      // The merged statistics are the sum of the parts; each worker adds
      // 300 playouts per move to the tree it keeps.
      const sum = (xs) => xs.reduce((a, b) => a + b, 0);
      assert.equal(got.merged.playouts, sum(parts.map((p) => p.playouts)));
      assert.equal(sum(got.merged.visits), sum(parts.flatMap((p) => p.visits)));
      assert.ok(got.merged.playouts >= 600, `ply ${plies}: ${got.merged.playouts} playouts`);
      assert.equal(got.stats.length, 2);
      const joint = game.roles().map((_r, i) => (i === role ? got.move : game.legalMoves(state, i)[0]));
      state = game.next(state, joint);
    }
    assert.ok(plies >= 4, `only ${plies} plies compared`);
  } finally {
    for (const w of workers) w.terminate();
    for (const w of here) w.free();
    game.free();
  }
});

test('mctsChoose sums the parts and refuses parts of different roots', async () => {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const gdl = await import('../js/node.js');
  const a = { moves: ['x', 'y'], visits: [3, 1], totals: [1.5, 1], playouts: 4 };
  const b = { moves: ['x', 'y'], visits: [1, 4], totals: [0, 3], playouts: 5 };
  const c = gdl.mctsChoose([a, b]);
  assert.deepEqual(c.merged, { moves: ['x', 'y'], visits: [4, 5], totals: [1.5, 4], playouts: 9, proven: [], plies: [] });
  assert.equal(c.move, 'y');
  assert.equal(c.value, 80);
  assert.throws(() => gdl.mctsChoose([a, { ...b, moves: ['y', 'x'] }]), TypeError);
  assert.equal(gdl.mctsChoose([{ moves: [], visits: [], totals: [], playouts: 0 }]).move, null);
  // MCTS-Solver's parts: a proof by any part is kept, a proven win is
  // played over the most visited move, a proven loss is not.
  const won = gdl.mctsChoose([a, { ...b, proven: [1, null] }]);
  assert.deepEqual(won.merged.proven, [1, null]);
  assert.deepEqual([won.move, won.value], ['x', 100]);
  assert.equal(gdl.mctsChoose([a, { ...b, proven: [null, 0] }]).move, 'x');
  assert.throws(() => gdl.mctsChoose([{ ...a, proven: [null] }]), TypeError);
  // Every move lost: the proofs' plies travel with them, and the slower
  // loss is played over the more visited.
  const lost = gdl.mctsChoose([a, { ...b, proven: [0, 0], plies: [2, 6] }]);
  assert.deepEqual(lost.merged.plies, [2, 6]);
  assert.equal(lost.move, 'y');
  assert.equal(gdl.mctsChoose([a, { ...b, proven: [0, 0], plies: [6, 2] }]).move, 'x');
});

test('parallelBestMove with the default player (MCTS-Solver) on worker threads: a tree per worker, the win proven', async () => {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const gdl = await import('../js/node.js');
  const { GdlWorker } = await import('../js/worker-node.js');
  const kif = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
  const game = new gdl.Game(kif);
  const workers = [new GdlWorker(), new GdlWorker()];
  try {
    // x: (1,1) (1,2); o: (2,1) (2,2). x to move wins at (1,3); o threatens (2,3).
    let state = game.initialState();
    for (const [r, c] of [[1, 1], [2, 1], [1, 2], [2, 2]]) {
      const mover = game.roles().findIndex((_x, i) => game.legalMoves(state, i).length > 1);
      state = game.next(state, game.roles().map((_x, i) => (i === mover ? `(mark ${r} ${c})` : 'noop')));
    }
    const fluents = game.fluents(state);
    const got = await gdl.parallelBestMove(workers, { kif, seed: 3, fluents, role: 0, spec: 'mcts-solver:playouts=2000' });
    assert.equal(got.move, '(mark 1 3)');
    assert.equal(got.value, 100);
    const i = got.merged.moves.indexOf('(mark 1 3)');
    assert.equal(got.merged.proven[i], 1);
    assert.equal(got.merged.proven.length, got.merged.moves.length);
    assert.equal(got.stats.length, 2);
    // Without a spec the workers run the default player (one second a move).
    const plain = await gdl.parallelBestMove(workers, { kif, seed: 3, fluents, role: 0 });
    assert.equal(plain.move, '(mark 1 3)');
    assert.equal(plain.merged.proven.length, plain.merged.moves.length);
  } finally {
    for (const w of workers) w.terminate();
    game.free();
  }
});

// Parallel alpha-beta (lazy SMP) over Node worker threads: worker `i` is
// helper `i` with its own table; with a node budget each worker's result
// equals an AlphaBetaWorker with the same number in this thread, and the
// move played is alphabetaChoose's (the native threads' rule, one Rust
// function; its cases are shared with crate/gdlkit/tests/integration/parallel_alphabeta.rs).
test('parallelBestMove with alphabeta on worker threads: the workers are the helpers, the rule picks', async () => {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const gdl = await import('../js/node.js');
  const { GdlWorker } = await import('../js/worker-node.js');
  const kif = readFileSync(join(ROOT, 'games', 'connectFour.kif'), 'utf8');
  const spec = 'alphabeta:nodes=3000,heuristic=mobility';
  const game = new gdl.Game(kif);
  const workers = [new GdlWorker(), new GdlWorker()];
  const here = [0, 1].map((worker) => new gdl.AlphaBetaWorker(kif, spec, { worker }));
  try {
    let state = game.initialState();
    let plies = 0;
    for (; plies < 3 && !game.isTerminal(state); plies += 1) {
      const fluents = game.fluents(state);
      const role = game.roles().findIndex((r) => game.legalMoves(state, r).length > 1);
      const got = await gdl.parallelBestMove(workers, { kif, spec, fluents, role });
      const parts = here.map((w) => w.rootResult(fluents, role));
      for (const [i, p] of parts.entries()) {
        assert.equal(got.stats[i].nodes, p.stats.nodes, `ply ${plies}, worker ${i}`);
        assert.ok(game.legalMoves(state, role).includes(p.move));
      }
      // Helper 1 starts one depth deeper: it completes at least as deep.
      assert.ok(parts[1].depth >= 2, `ply ${plies}: helper depth ${parts[1].depth}`);
      const want = gdl.alphabetaChoose(parts.map(({ stats, ...r }) => r));
      assert.equal(got.move, want.move, `ply ${plies}`);
      assert.equal(got.worker, want.worker);
      const joint = game.roles().map((_r, i) => (i === role ? got.move : game.legalMoves(state, i)[0]));
      state = game.next(state, joint);
    }
    assert.ok(plies >= 3, `only ${plies} plies compared`);
  } finally {
    for (const w of workers) w.terminate();
    for (const w of here) w.free();
    game.free();
  }
});

test('alphabetaChoose runs the cases the native rule runs', async () => {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const gdl = await import('../js/node.js');
  const { cases } = JSON.parse(readFileSync(join(ROOT, 'crate', 'gdlkit', 'tests', 'fixtures', 'alphabeta_choose.json'), 'utf8'));
  assert.ok(cases.length >= 5);
  for (const c of cases) {
    const got = gdl.alphabetaChoose(c.parts);
    assert.equal(got.worker ?? null, c.worker, c.why);
    assert.equal(got.move ?? null, c.worker === null ? null : c.parts[c.worker].move, c.why);
  }
  assert.throws(() => gdl.alphabetaChoose([{ move: 'a' }]), TypeError);
});
