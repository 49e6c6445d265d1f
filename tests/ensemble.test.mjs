// The ensemble player across Node worker threads: each worker
// runs one member (one alpha-beta search, one evaluation function), Rust's
// `ensembleChoose` applies the lecture's rule. The rule gives the same
// answers as natively on the shared fixture (crate/gdlkit/tests/integration/ensemble.rs reads
// it too), and the workers take a proven win in tic-tac-toe.
// Runs on the wasm build in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';

const needPkg = () => assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');

test('ensembleChoose follows the same rule as the native player (shared fixture)', async () => {
  needPkg();
  const gdl = await import('../js/node.js');
  const { cases } = JSON.parse(readFileSync(join(ROOT, 'crate/gdlkit/tests/fixtures/ensemble-choices.json'), 'utf8'));
  assert.ok(cases.length >= 7);
  for (const c of cases) {
    const got = gdl.ensembleChoose(c.parts);
    assert.equal(got.index, c.index, c.why);
    assert.equal(got.move, c.index === null ? null : c.parts[c.index].move, c.why);
  }
  assert.throws(() => gdl.ensembleChoose([{ heuristic: 'fuzzy' }]), TypeError);
});

test('parallelEnsembleMove on worker threads: one member per worker, a proven win is taken', async () => {
  needPkg();
  const gdl = await import('../js/node.js');
  const { GdlWorker } = await import('../js/worker-node.js');
  const kif = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
  // Generous: the members solve this position in milliseconds and stop; the
  // time only has to cover a loaded machine.
  const spec = 'ensemble:workers=3,ms=2000';
  const game = new gdl.Game(kif);
  const workers = [new GdlWorker(), new GdlWorker(), new GdlWorker()];
  try {
    let state = game.initialState();
    // x: (1,1) (1,2); o: (2,1) (2,2); x to move wins with (1,3).
    for (const [r, mv] of [[0, '(mark 1 1)'], [1, '(mark 2 1)'], [0, '(mark 1 2)'], [1, '(mark 2 2)']]) {
      state = game.next(state, game.roles().map((_x, i) => (i === r ? mv : game.legalMoves(state, i)[0])));
    }
    const fluents = game.fluents(state);
    const members = gdl.ensembleMembers(kif, spec);
    assert.deepEqual(members.slice(0, 3), ['none', 'fuzzy', 'mobility']);
    const got = await gdl.parallelEnsembleMove(workers, { kif, spec, fluents, role: 0 });
    assert.equal(got.parts.length, 3);
    assert.deepEqual(
      got.parts.map((p) => p.heuristic),
      members,
    );
    const legal = game.legalMoves(state, 0);
    for (const p of got.parts) {
      assert.ok(legal.includes(p.move), `${p.heuristic}: ${p.move}`);
    }
    assert.equal(got.move, '(mark 1 3)');
    assert.equal(got.move, got.parts[got.index].move);
    assert.ok(got.parts[got.index].solved);
    // The same choice as the rule applied here to the same results.
    assert.equal(gdl.ensembleChoose(got.parts).index, got.index);
  } finally {
    for (const w of workers) w.terminate();
    game.free();
  }
});
