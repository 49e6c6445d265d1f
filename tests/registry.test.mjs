// The late bindings through the npm API (wasm, in Node): the one registry of
// players with the tree view's flag, the one list of heuristics with the
// Why? panel's flags, and the parallel players' worker
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

test('heuristics(): the one list, with the Why? panel\'s flags true to what explain does', () => {
  const list = api.heuristics();
  assert.ok(list.length >= 9, `the heuristics: ${list.map((x) => x.name)}`);
  for (const x of list) assert.deepEqual(keys(x), ['description', 'distance', 'explain', 'label', 'name']);
  assert.equal(new Set(list.map((x) => x.name)).size, list.length, 'names are unique');
  const offered = list.filter((x) => x.explain);
  assert.ok(offered.length >= 4 && offered.some((x) => x.distance) && offered.some((x) => !x.distance));
  // Each offered one explains the position after x's corner; a distance's
  // values are distances (non-negative, a smaller one is better), the
  // others' are values (f_JO around 0, the rest in [1, 99]).
  for (const x of offered) {
    const e = api.explain(TICTACTOE, { heuristic: x.name, moves: [['(mark 1 1)', 'noop']] });
    assert.equal(e.heuristic, x.name);
    assert.equal(e.moves.length, 8, x.name);
    const values = e.moves.map((m) => m.value).filter((v) => v !== null);
    assert.ok(values.length > 0, x.name);
    if (x.distance) assert.ok(values.every((v) => v >= 0 && Number.isInteger(v)), `${x.name}: ${values}`);
    else if (x.name !== 'fjo') assert.ok(values.every((v) => v >= 1 && v <= 99), `${x.name}: ${values}`);
  }
  assert.ok(!list.find((x) => x.name === 'none').explain, 'the constant is not offered');
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
  assert.deepEqual(keys(rs), ['moves', 'playouts', 'plies', 'proven', 'stats', 'totals', 'visits']);
  assert.deepEqual(rs.proven, [], 'plain MCTS proves nothing');
  assert.deepEqual(rs.plies, []);
  assert.equal(rs.moves.length, 9);
  const { stats: _m, ...stats } = rs;
  const choice = api.mctsChoose([stats]);
  assert.deepEqual(keys(choice), ['merged', 'move', 'value']);
  assert.ok(rs.moves.includes(choice.move));
  for (const w of [member, ab, mc, game]) w.free();
});

test('the default player: MCTS-Solver, the same in the registry, the npm API and the page', () => {
  assert.equal(api.defaultPlayer(), 'mcts-solver');
  assert.ok(api.players().some((p) => p.name === api.defaultPlayer()));
  // The page knows it before its engine loads (site/src/engine/client.js).
  const client = readFileSync(join(ROOT, 'site', 'src', 'engine', 'client.js'), 'utf8');
  assert.match(client, new RegExp(`export const DEFAULT_PLAYER = '${api.defaultPlayer()}';`));
  // Tic-tac-toe counts no material (every move adds a piece), so its
  // tactical check is off (tactics=auto) and its tree holds one node per
  // state (transpositions=auto); breakthrough counts it, checks, and not.
  const player = new api.Player(TICTACTOE);
  assert.match(player.name, /^mcts\(solver\b.*\bgreedy\b.*\btranspositions\b/);
  assert.doesNotMatch(player.name, /\b(material|tactics)\b/);
  player.free();
  const breakthrough = new api.Player(readFileSync(join(ROOT, 'games', 'breakthrough.kif'), 'utf8'));
  assert.match(breakthrough.name, /^mcts\(solver\b.*\bmaterial\b.*\bgreedy\b.*\btactics\b/);
  assert.doesNotMatch(breakthrough.name, /transpositions/);
  breakthrough.free();
  // Its options are those of mcts with solver=on; it cannot be turned into plain MCTS.
  assert.throws(() => new api.Player(TICTACTOE, 'mcts-solver:solver=off'), (e) => e instanceof TypeError && /always solves/.test(e.message));
  assert.throws(() => new api.Player(TICTACTOE, 'mcts-solver:rave=5'), (e) => e instanceof TypeError && /has no option `rave` \(options: ms, .*choke, subgames\)/.test(e.message));
  const tactics = new api.Player(TICTACTOE, 'mcts-solver:tactics=on,ms=50');
  assert.match(tactics.name, /\btactics\b/);
  tactics.free();
  const off = new api.Player(TICTACTOE, 'mcts-solver:greedy=off,ms=50');
  assert.doesNotMatch(off.name, /greedy/);
  off.free();
});

test('parallel workers: options are read in Rust, an unknown key is a TypeError naming the known ones', () => {
  for (const [make, known] of [
    [() => new api.MctsWorker(TICTACTOE, 'mcts', { seeds: 2 }), /seed.*worker.*engine/],
    [() => new api.AlphaBetaWorker(TICTACTOE, 'alphabeta', { workers: 2 }), /worker.*engine/],
    [() => new api.EnsembleMember(TICTACTOE, 'ensemble', { members: 2 }), /member.*engine/],
  ]) {
    assert.throws(make, (e) => e instanceof TypeError && known.test(e.message));
  }
  // The workers read the spec's evaluation as the one-thread player does.
  assert.throws(
    () => new api.MctsWorker(TICTACTOE, 'mcts-solver:eval=pieces'),
    (e) => e instanceof TypeError && /eval expects material or off/.test(e.message),
  );
  // The solver's options need the solver; its workers take tactics
  // (worker 0 checks).
  assert.throws(
    () => new api.MctsWorker(TICTACTOE, 'mcts:tactics=on'),
    (e) => e instanceof TypeError && /tactics needs solver=on/.test(e.message),
  );
  for (const worker of [0, 1]) new api.MctsWorker(TICTACTOE, 'mcts-solver', { worker }).free();
  // Playouts end in goals: multiples of 0.5 in tic-tac-toe.
  const game = new api.Game(TICTACTOE);
  const fluents = game.fluents(game.initialState());
  const halves = (spec) => {
    const w = new api.MctsWorker(TICTACTOE, spec, { seed: 1 });
    const { totals, playouts } = w.rootStats(fluents, 0);
    w.free();
    assert.equal(playouts, 40, spec);
    return totals.every((t) => Number.isInteger(t * 2));
  };
  assert.ok(halves('mcts:playouts=40'));
  assert.ok(halves('mcts:greedy=on,playouts=40'));
  game.free();
  // Keys set to undefined count as absent (what the worker jobs pass).
  new api.MctsWorker(TICTACTOE, 'mcts', { seed: undefined, worker: 1, engine: undefined }).free();
  assert.throws(() => new api.EnsembleMember(TICTACTOE, 'ensemble', { member: 99 }), RangeError);
});

test('memoryBudget(): the budget and the memory in use, in MB', () => {
  const m = api.memoryBudget();
  assert.deepEqual(keys(m), ['budgetMb', 'usedMb']);
  assert.ok(m.budgetMb >= 16 && m.usedMb >= 0 && m.usedMb <= m.budgetMb, JSON.stringify(m));
});
