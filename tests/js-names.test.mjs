// The JavaScript API's naming and strictness: results in
// camelCase (the CLI's JSON keeps snake_case), an unknown option key a
// TypeError in every binding, and a Game with its state handles accepted by
// players, search and explain. Needs `npm run build` (pkg/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import {
  analyze,
  check,
  explain,
  fix,
  Game,
  Player,
  renderBoard,
  replay,
  runCli,
  runMatch,
  search,
  searchTree,
  structure,
} from '../js/node.js';

const ticTacToe = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');

/** Every key of every object in `v`, recursively (arrays looked into). */
function keys(v, out = new Set()) {
  if (Array.isArray(v)) {
    for (const x of v) keys(x, out);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      keys(x, out);
    }
  }
  return out;
}

const snake = (set) => [...set].filter((k) => /^[a-z][a-z0-9]*_[a-z0-9_]+$/.test(k));

test('results are camelCase; the CLI keeps snake_case', () => {
  const results = {
    search: search(ticTacToe, { depth: 2, trace: true }),
    searchTree: searchTree('((3 12 8) (2 4 6) (14 5 2))', { trace: true, ordering: 'best' }),
    match: runMatch(ticTacToe, ['random', 'legal'], { games: 2 }),
    explain: explain(ticTacToe, { heuristic: 'hff' }),
    structure: structure(ticTacToe, { states: 50 }),
    analyze: analyze(ticTacToe, { budget: 100 }),
    check: check('(role x)\n(<= (legal x a) (true (p ?y)))\n'),
  };
  for (const [name, r] of Object.entries(results)) {
    assert.deepEqual(snake(keys(r)), [], `${name} has snake_case fields`);
  }
  assert.equal(typeof results.search.bestMove, 'string');
  assert.ok(results.search.stats.ttHits >= 0 && results.search.nodeCap > 0);
  assert.equal(results.searchTree.bestMove, '1');
  assert.ok(results.match.players[0].meanGoal >= 0);
  assert.ok(results.explain.moves[0].goals[0].hFf >= 0);
  assert.equal(results.structure.turnTaking, true);
  assert.ok(results.analyze.report.properties.stronglyWinnable);
  assert.ok(results.check.length > 0 && results.check[0].endLine >= 1);
  // Data keys stay: role names of a replay step.
  const r = replay(ticTacToe, { jointMoves: [['(mark 1 1)', 'noop']] });
  assert.deepEqual(Object.keys(r.steps[0].legal), ['x', 'o']);
  // The CLI's JSON is as documented (snake_case).
  const cli = JSON.parse(runCli(['search', 'g.kif', '--depth', '1', '--format', 'json'], { 'g.kif': ticTacToe }).stdout);
  assert.ok('best_move' in cli && !('bestMove' in cli));
});

test('an unknown option key is a TypeError in every binding', () => {
  const game = new Game(ticTacToe);
  const s = game.initialState();
  const calls = {
    search: () => search(ticTacToe, { depht: 2 }),
    searchTree: () => searchTree('(1 2)', { budget_ms: 5 }),
    gameSearch: () => game.search(s, { nodeCaps: 3 }),
    gameExplain: () => game.explain(s, { heuristics: 'hff' }),
    playouts: () => game.playouts({ counts: 3 }),
    match: () => runMatch(ticTacToe, ['random', 'random'], { max_steps: 3 }),
    explain: () => explain(ticTacToe, { role: 'x', movez: [] }),
    structure: () => structure(ticTacToe, { sample: 3 }),
    renderBoard: () => renderBoard(ticTacToe, [], { size: 3 }),
    analyze: () => analyze(ticTacToe, { budgets: 3 }),
    fix: () => fix('(role x)', { safe: true }),
  };
  for (const [name, call] of Object.entries(calls)) {
    assert.throws(call, (e) => e instanceof TypeError && /unknown|options/.test(e.message), name);
  }
  // Keys set to undefined count as absent.
  assert.equal(search(ticTacToe, { depth: 1, role: undefined }).depth, 1);
  game.free();
});

test('players, search and explain take a Game and a state handle', () => {
  const game = new Game(ticTacToe, { engine: 'interpreter' });
  let s = game.initialState();
  s = game.next(s, ['(mark 1 1)', 'noop']);
  s = game.next(s, ['noop', '(mark 2 1)']);
  s = game.next(s, ['(mark 1 2)', 'noop']);
  s = game.next(s, ['noop', '(mark 2 2)']);
  // x wins with (mark 1 3): the same move from a handle and from fluents.
  const player = new Player(game, 'alphabeta:depth=3');
  assert.equal(player.engine, 'interpreter');
  assert.equal(player.selectMove(s, 'x'), '(mark 1 3)');
  assert.equal(player.selectMove(game.fluents(s), 0), '(mark 1 3)');
  assert.throws(() => new Player(ticTacToe, 'random').selectMove(s, 0), TypeError);
  player.free();
  assert.equal(game.search(s, { depth: 3 }).bestMove, '(mark 1 3)');
  const why = game.explain(s, { role: 'x', heuristic: 'fjo' });
  assert.equal(why.role, 'x');
  const win = why.moves.find((m) => m.move === '(mark 1 3)');
  assert.equal(win.terminal, true);
  // The same explanation as from the moves that lead there.
  const moves = [['(mark 1 1)', 'noop'], ['noop', '(mark 2 1)'], ['(mark 1 2)', 'noop'], ['noop', '(mark 2 2)']];
  assert.deepEqual(explain(ticTacToe, { moves, role: 'x', engine: 'interpreter' }), why);
  game.free();
});
