// explain(kif, options) from JavaScript (js/node.js over pkg/) and through
// the worker: the same object as `gdlkit explain --format json`. The
// lecture's planning example 2 (crate/gdlkit/tests/fixtures) gives h_FF 3 with the
// plan [op2, op1, op0]; tic-tac-toe's first moves are all worth the same
// f_JO (25/3 each with the thesis's costs); errors are thrown, never
// traps. Needs `npm run build` (pkg/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { explain, isGdlError } from '../js/node.js';
import { GdlWorker } from '../js/worker-node.js';

const example = readFileSync(join(ROOT, 'crate', 'gdlkit', 'tests', 'fixtures', 'planning_example.kif'), 'utf8');
const ticTacToe = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');

test('the lecture planning example: h_FF 3, plan op2 op1 op0', () => {
  const e = explain(example, { heuristic: 'hff' });
  assert.equal(e.role, 'player');
  assert.equal(e.heuristic, 'hff');
  assert.equal(e.terminal, false);
  assert.equal(e.value, 3);
  const win = e.goals.find((g) => g.goal === 100);
  assert.deepEqual([win.hMax, win.hFf, win.q], [3, 3, 50]);
  assert.deepEqual(win.plan, ['op2', 'op1', 'op0']);
  assert.deepEqual(e.moves.map((m) => [m.move, m.value]), [['op2', 2]]);
  // after op2 and op1, op0 ends the game with goal 100: f_JO = 100 - 50
  const late = explain(example, { moves: [['op2'], ['op1']] });
  assert.equal(late.heuristic, 'fjo');
  assert.deepEqual(late.moves.map((m) => [m.move, m.terminal, m.value]), [['op0', true, 50]]);
});

test('tic-tac-toe: every first move of x has the same f_JO, with relaxed plans', () => {
  const e = explain(ticTacToe, { role: 'x' });
  assert.equal(e.moves.length, 9);
  const values = new Set(e.moves.map((m) => m.value));
  assert.equal(values.size, 1, JSON.stringify([...values]));
  for (const m of e.moves) {
    const win = m.goals.find((g) => g.goal === 100);
    assert.ok(win.hFf >= 2 && win.plan.length === 2, JSON.stringify(win));
    const loss = m.goals.find((g) => g.goal === 0);
    assert.ok(loss.plan.every((p) => p.startsWith('o: ')), JSON.stringify(loss));
  }
  // another heuristic by name (generic): values in [1, 99], no goal distances
  const fuzzy = explain(ticTacToe, { heuristic: 'fuzzy' });
  assert.ok(fuzzy.moves.every((m) => m.value >= 1 && m.value <= 99 && m.goals.length === 0));
});

test('the thesis costs: every first move of x is worth 25/3 (the thesis\'s table), each on the cell it marks', () => {
  const e = explain(ticTacToe, { role: 'x', costs: 'thesis' });
  assert.equal(e.heuristic, 'fjo-thesis');
  assert.equal(e.moves.length, 9);
  for (const m of e.moves) {
    assert.ok(Math.abs(m.value - 25 / 3) < 1e-9, `${m.move}: ${m.value}`);
    // `(mark r c)` changes the board cell (r, c) only, computed in Rust.
    assert.deepEqual(m.cells, [m.move.slice(6, -1).split(' ')]);
  }
  // The default costs (thesis 4.5) differ: the turn passing costs 1 (docs/planning.md, deviation 2).
  const d = explain(ticTacToe, { role: 'x', costs: 'default' });
  assert.ok(d.moves.every((m) => Math.abs(m.value - 25 / 3) > 1e-6), JSON.stringify(d.moves.map((m) => m.value)));
  assert.ok(e.chosen && e.runnerUp && e.chosen !== e.runnerUp);
  assert.throws(() => explain(ticTacToe, { costs: 'cheap' }), (x) => isGdlError(x, 'GdlExplainError') && /unknown costs `cheap`/.test(x.message));
});

test('bad input is an error, never a trap', () => {
  assert.throws(() => explain(ticTacToe, { moves: [['(mark 9 9)', 'noop']] }), (e) => isGdlError(e, 'GdlExplainError') && /not legal/.test(e.message));
  assert.throws(() => explain(ticTacToe, { heuristic: 'nope' }), (e) => isGdlError(e, 'GdlExplainError') && /unknown heuristic/.test(e.message));
  assert.throws(() => explain(ticTacToe, { colour: 1 }), TypeError);
  assert.throws(() => explain('(role', {}), (e) => isGdlError(e, 'GdlDiagnosticsError'));
  assert.throws(() => explain(42), TypeError);
});

test('the worker runs explain', async () => {
  const worker = new GdlWorker();
  try {
    const e = await worker.explain(example, { heuristic: 'hff' });
    assert.equal(e.value, 3);
  } finally {
    worker.terminate();
  }
});
