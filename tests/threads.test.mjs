// The WebAssembly build with threads (pkg-threads/, js/threads-node.js):
// worker threads share the module's memory and run the library's parallel
// work. Checked against the build without threads: the solver on two
// threads finds exactly the same states and values, and MCTS-Solver's two
// walkers on one tree prove a won position. Needs `npm run build`.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { Game, init, solve } from '../js/node.js';
import { loadThreaded } from '../js/threads-node.js';

const kif = (name) => readFileSync(join(ROOT, 'games', `${name}.kif`), 'utf8');
let threaded;

before(async () => {
  await init();
  threaded = await loadThreaded({ threads: 2 });
});

after(() => threaded?.terminate());

test('the threaded build runs its parallel work on two threads', () => {
  assert.equal(threaded.threads, 2);
  assert.equal(threaded.wasm.sharedMemory(), true);
  assert.equal(threaded.wasm.threadCount(), 2);
});

function solveOn(wasm, text) {
  const job = new wasm.SolveJob(text, {});
  try {
    while (!job.step(1 << 16).done) {
      // blocks of states, as js/solve.js steps
    }
    return job.summary();
  } finally {
    job.free();
  }
}

test('the solver on two threads finds the same states and values as on one', () => {
  // connectThree: 613,459 states, ten blocks of the forward pass.
  for (const name of ['connectThree', 'ticTacToe', 'nim']) {
    const one = solve(kif(name));
    const two = solveOn(threaded.wasm, kif(name));
    assert.equal(two.complete, true, name);
    assert.deepEqual(two.initial, one.initial, name);
    assert.deepEqual(two.byValue, one.byValue, name);
    for (const key of ['states', 'expanded', 'terminal', 'edges']) {
      assert.equal(two.stats[key], one.stats[key], `${name}: ${key}`);
    }
  }
  assert.ok(solve(kif('connectThree')).stats.states > 600_000, 'a solve of several blocks ran');
});

test('MCTS-Solver with two walkers on one tree proves a won position', () => {
  // x to move with two in the top row, o threatening the middle row: only (mark 1 3) wins at once.
  const fluents = ['(cell 1 1 x)', '(cell 1 2 x)', '(cell 1 3 blank)', '(cell 2 1 o)', '(cell 2 2 o)', '(cell 2 3 blank)', '(cell 3 1 blank)', '(cell 3 2 blank)', '(cell 3 3 blank)', '(control x)'];
  const game = new Game(kif('ticTacToe'));
  const state = game.stateFromFluents(fluents);
  const winning = game.legalMoves(state, 0).filter((m) => {
    const joint = [m, game.legalMoves(state, 1)[0]];
    return game.goals(game.next(state, joint))[0] === 100;
  });
  assert.ok(winning.length >= 1, 'the position has a winning move');
  const player = new threaded.wasm.SearchPlayer(kif('ticTacToe'), 'mcts-solver:threads=2,ms=300', 7, undefined);
  const move = player.selectMove(fluents, 0);
  assert.ok(winning.includes(move), `${move} wins`);
  const stats = player.lastStats();
  assert.ok(stats.playouts > 0 || stats.iterations > 0 || stats.nodes > 0, JSON.stringify(stats));
  player.free();
  game.free();
});
