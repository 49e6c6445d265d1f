// The late bindings through the npm API (wasm, in Node): the one registry of
// players with the tree view's flag, and the parallel players' worker
// results in the shapes their generated types (js/types.d.ts) declare.
// Runs on the build in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';

assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
const api = await import(join(ROOT, 'js', 'node.js'));
const TICTACTOE = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
const LECTURE = '((3 12 8) (2 4 6) (14 5 2))';

/** The keys of an object, sorted. */
const keys = (o) => Object.keys(o).sort();
const STATS = ['cutoffs', 'depth', 'elapsedMs', 'leaves', 'nodes', 'playouts', 'ttHits'];

test('players(): the registry flags the algorithms the tree view draws, and those trace every node', () => {
  const players = api.players();
  assert.ok(players.length >= 8, `at least the 8 players: ${players.map((p) => p.name)}`);
  for (const p of players) assert.deepEqual(keys(p), ['description', 'drawsTree', 'label', 'name']);
  const drawn = players.filter((p) => p.drawsTree);
  assert.deepEqual(drawn.map((p) => [p.name, p.label]), [['minimax', 'minimax'], ['alphabeta', 'alpha-beta']]);
  for (const { name } of drawn) {
    const r = api.searchTree(LECTURE, { algorithm: name, trace: true });
    assert.equal(r.events.filter((e) => e.type === 'enter').length, r.stats.nodes, name);
  }
});

test('parallel workers: results and choices have the generated fields, camelCase', () => {
  const game = new api.Game(TICTACTOE);
  const fluents = game.fluents(game.initialState());
  const member = new api.EnsembleMember(TICTACTOE, 'ensemble:ms=20', { member: 0 });
  const part = member.search(fluents, 0);
  assert.deepEqual(keys(part), ['depth', 'heuristic', 'move', 'solved', 'stats', 'value']);
  assert.deepEqual(keys(part.stats), STATS);
  const pick = api.ensembleChoose([part]);
  assert.deepEqual(pick, { move: part.move, index: 0, heuristic: part.heuristic });

  const ab = new api.AlphaBetaWorker(TICTACTOE, 'alphabeta:depth=2');
  const root = ab.rootResult(fluents, 0);
  assert.deepEqual(keys(root), ['depth', 'move', 'solved', 'stats', 'value']);
  assert.ok(root.stats.nodes > 0);
  const { stats: _s, ...result } = root;
  assert.deepEqual(api.alphabetaChoose([result]), { worker: 0, ...result });

  const mc = new api.MctsWorker(TICTACTOE, 'mcts:playouts=50', { seed: 1 });
  const rs = mc.rootStats(fluents, 0);
  assert.deepEqual(keys(rs), ['moves', 'playouts', 'stats', 'totals', 'visits']);
  assert.equal(rs.moves.length, 9);
  const { stats: _m, ...stats } = rs;
  const choice = api.mctsChoose([stats]);
  assert.deepEqual(keys(choice), ['merged', 'move', 'value']);
  assert.ok(rs.moves.includes(choice.move));
  for (const w of [member, ab, mc, game]) w.free();
});

test('parallel workers: options are read in Rust, an unknown key is a TypeError naming the known ones', () => {
  for (const [make, known] of [
    [() => new api.MctsWorker(TICTACTOE, 'mcts', { seeds: 2 }), /seed.*worker.*engine/],
    [() => new api.AlphaBetaWorker(TICTACTOE, 'alphabeta', { workers: 2 }), /worker.*engine/],
    [() => new api.EnsembleMember(TICTACTOE, 'ensemble', { members: 2 }), /member.*engine/],
  ]) {
    assert.throws(make, (e) => e instanceof TypeError && known.test(e.message));
  }
  // Keys set to undefined count as absent (what the worker jobs pass).
  new api.MctsWorker(TICTACTOE, 'mcts', { seed: undefined, worker: 1, engine: undefined }).free();
  assert.throws(() => new api.EnsembleMember(TICTACTOE, 'ensemble', { member: 99 }), RangeError);
});

test('memoryBudget(): the budget and the memory in use, in MB', () => {
  const m = api.memoryBudget();
  assert.deepEqual(keys(m), ['budgetMb', 'usedMb']);
  assert.ok(m.budgetMb >= 16 && m.usedMb >= 0 && m.usedMb <= m.budgetMb, JSON.stringify(m));
});
