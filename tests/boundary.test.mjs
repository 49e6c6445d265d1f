// The npm API's boundary (wasm, in Node): bad arguments and option values
// are a TypeError or RangeError naming the option and its range, never a
// trap; state handles cannot be confused between games; a trap that still
// happens rebuilds the instance and fails only that call. Runs on the build
// in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';
import { families } from './adversarial.mjs';

assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
const api = await import(join(ROOT, 'js', 'node.js'));
const { Game, Player, explain, isGdlError, memoryBudget, runMatch, setMemoryBudget } = api;
const TICTACTOE = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
const NIM = readFileSync(join(ROOT, 'games', 'nim.kif'), 'utf8');

/** The instance still plays: tic-tac-toe's initial state has 9 moves for x. */
function stillAlive() {
  const g = new Game(TICTACTOE);
  assert.equal(g.legalMoves(g.initialState(), 0).length, 9);
  g.free();
}

/** `f` throws an error of class `kind` whose message matches every pattern. */
function throwsWith(f, kind, ...patterns) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof kind, `${e?.name}: ${e?.message}`);
    for (const p of patterns) {
      assert.match(e.message, p);
    }
    return true;
  });
  stillAlive();
}

test('option values of the wrong type or out of range: TypeError or RangeError naming the option, no trap', () => {
  throwsWith(() => new Game(TICTACTOE, { engine: 7 }), TypeError, /engine/);
  throwsWith(() => new Game(TICTACTOE, { engine: {} }), TypeError, /engine/);
  throwsWith(() => new Game(TICTACTOE, 'fast'), TypeError, /options must be an object/);
  throwsWith(() => runMatch(TICTACTOE, ['random', 'random'], { games: 1e9 }), RangeError, /games/, /1 to 100000/);
  throwsWith(() => runMatch(TICTACTOE, ['random', 'random'], { games: 100001 }), RangeError, /1 to 100000/);
  throwsWith(() => runMatch(TICTACTOE, ['random', 'random'], { games: 0 }), RangeError, /1 to 100000/);
  throwsWith(() => setMemoryBudget(1e9), RangeError, /16 to 1920/);
  throwsWith(() => setMemoryBudget(NaN), RangeError, /16 to 1920/);
  throwsWith(() => setMemoryBudget('512'), TypeError, /number/);
  assert.equal(memoryBudget().budgetMb, 1536, 'a refused budget changes nothing');
  throwsWith(() => explain(TICTACTOE, { ms: -5 }), RangeError, /explain option ms -5/, /above 0/);
  throwsWith(() => explain(TICTACTOE, { ms: NaN }), RangeError, /explain option ms is NaN/);
  throwsWith(() => api.structure(TICTACTOE, { ms: -1 }), RangeError, /structure option ms/);
  throwsWith(() => new Game(TICTACTOE).playouts({ count: 1e9 }), RangeError, /count/);
  assert.throws(() => new Player(TICTACTOE, 'mcts:ms=-1'), (e) => /player option ms -1/.test(e.message) && (e instanceof TypeError || isGdlError(e)));
  assert.throws(() => new Player(TICTACTOE, { name: 'alphabeta', ms: Infinity }), /player option ms/);
  stillAlive();
});

test('explain of a text without roles is a GdlDiagnosticsError, not a panic (found by the fuzzer)', () => {
  for (const kif of ['auto', '', 'minimax:depth=1']) {
    assert.throws(() => explain(kif), (e) => isGdlError(e, 'GdlDiagnosticsError') && /GDL060/.test(e.message));
    stillAlive();
  }
});

test('moves and fluents that are not strings: TypeError, never a plain Error or a trap', () => {
  const g = new Game(TICTACTOE);
  const s = g.initialState();
  throwsWith(() => g.next(s, [1, 2]), TypeError, /moves\[0\] must be a string/);
  throwsWith(() => g.next(s, null), TypeError, /moves must be/);
  throwsWith(() => g.next(s, 'noop'), TypeError, /moves must be/);
  throwsWith(() => g.stateFromFluents(['(((', 42]), TypeError, /fluents\[1\] must be a string/);
  throwsWith(() => g.stateFromFluents('(cell 1 1 b)'), TypeError, /array of strings/);
  // A fluent text that does not parse is a TypeError too (from Rust).
  throwsWith(() => g.stateFromFluents(['(((']), TypeError);
  throwsWith(() => new Player(TICTACTOE, 'random').selectMove([1], 0), TypeError, /fluents\[0\]/);
  g.free();
});

test('a state handle names its game: another game\'s, a freed game\'s or a released handle is a RangeError', () => {
  const a = new Game(TICTACTOE);
  const b = new Game(TICTACTOE);
  const ha = a.initialState();
  const hb = b.initialState();
  assert.notEqual(ha, hb);
  throwsWith(() => a.fluents(hb), RangeError, /another game/);
  throwsWith(() => a.sameState(a.initialState(), hb), RangeError, /another game/);
  throwsWith(() => a.next(hb, { x: '(mark 1 1)', o: 'noop' }), RangeError, /another game/);
  // Released: by dropState and by clearStates.
  const h2 = a.initialState();
  a.dropState(h2);
  throwsWith(() => a.isTerminal(h2), RangeError, /released/);
  // dropState of a foreign handle does not release it in its own game.
  a.dropState(hb);
  assert.equal(b.fluents(hb).length, 10);
  // A freed game's handle given to a live game (even one of the same text).
  const c = new Game(TICTACTOE);
  const hc = c.initialState();
  c.free();
  throwsWith(() => a.goals(hc), RangeError, /another game/);
  // Numbers no game gave out.
  for (const bad of [0, 1, -1, 1.5, NaN, Infinity, 2 ** 53, ha + 1000]) {
    throwsWith(() => a.fluents(bad), RangeError, /state handle/);
  }
  a.clearStates();
  throwsWith(() => a.fluents(ha), RangeError, /released/);
  // The game itself works on.
  assert.equal(a.legalMoves(a.initialState(), 0).length, 9);
  a.free();
  b.free();
});

test('explain with 30 simultaneous roles: an answer with the first 256 replies per move, and the instance lives on', () => {
  const kif = families.jointMoves(30, 2);
  const e = explain(kif, { heuristic: 'hmax', ms: 60000 });
  assert.equal(e.moves.length, 2);
  for (const m of e.moves) {
    assert.equal(m.replies.length, 256);
    assert.equal(m.replies[0].moves.length, 29);
  }
  const g = new Game(kif);
  const ex = g.explain(g.initialState(), { heuristic: 'hmax' });
  assert.equal(ex.moves[0].replies.length, 256);
  // legalJointMoves refuses 2^30 joint moves with a RangeError.
  throwsWith(() => g.legalJointMoves(g.initialState()), RangeError, /too many joint moves/);
  g.free();
  stillAlive();
});

test('a trap rebuilds the instance: only that call fails (GdlCrashError), old objects say they are gone, new ones work', async () => {
  const { wasm } = await import(join(ROOT, 'js', 'wasm.js'));
  setMemoryBudget(700);
  const before = new Game(NIM);
  const s = before.initialState();
  assert.throws(
    () => wasm.testTrap(),
    (e) => e.name === 'GdlCrashError' && isGdlError(e) && e.cause instanceof WebAssembly.RuntimeError && /rebuilt/.test(e.message),
  );
  // The game made before is gone, with an error that says so (not a trap).
  assert.throws(() => before.fluents(s), (e) => e.name === 'GdlCrashError' && /lost/.test(e.message));
  before.free(); // idempotent, no error
  // The new instance works, with the budget set before.
  stillAlive();
  assert.equal(memoryBudget().budgetMb, 700);
  const after = new Game(NIM);
  assert.ok(after.legalMoves(after.initialState(), 0).length > 0);
  after.free();
  setMemoryBudget(1536);
});
