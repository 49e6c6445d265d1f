// Solved values in npm's `Player`: a searching player solves a small game
// at its start (or loads a solution file) and then plays the solution's
// moves. Checked by brute force: against every sequence of replies it ends
// with at least the game's solved value, on each side. Needs `npm run
// build` (pkg/).

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { Game, init, Player, SolveJob } from '../js/node.js';

const kif = (name) => readFileSync(join(ROOT, 'games', `${name}.kif`), 'utf8');

before(async () => {
  await init();
});

/**
 * The lowest goal `role` ends with when `player` moves for it and the other
 * role tries every legal move; counts the player's moves and how many came
 * from its solution.
 */
function worstOutcome(game, player, state, role, counts) {
  if (game.isTerminal(state)) return game.goals(state)[role];
  const other = 1 - role;
  const joint = game.roles().map((_r, i) => game.legalMoves(state, i)[0]);
  if (game.legalMoves(state, role).length > 1) {
    joint[role] = player.selectMove(state, role);
    counts.moves += 1;
    if (player.lastMoveSolved) counts.solved += 1;
    return worstOutcome(game, player, game.next(state, joint), role, counts);
  }
  let worst = Infinity;
  for (const m of game.legalMoves(state, other)) {
    joint[other] = m;
    worst = Math.min(worst, worstOutcome(game, player, game.next(state, joint), role, counts));
  }
  return worst;
}

for (const name of ['ticTacToe', 'nim', 'hexapawn']) {
  test(`${name}: a searching player solves it at its start and never falls below the solved value`, () => {
    const game = new Game(kif(name));
    // A budget far too small to search the game: every value comes from the
    // solution (given time to finish on a busy machine; the default is a second).
    const player = new Player(game, 'alphabeta:ms=1,heuristic=fuzzy', { solution: { seconds: 60 } });
    try {
      assert.equal(player.solution?.complete, true);
      const value = player.solution.initial.goals;
      for (let role = 0; role < 2; role++) {
        const counts = { moves: 0, solved: 0 };
        const worst = worstOutcome(game, player, game.initialState(), role, counts);
        assert.equal(worst, value[role], `${name}, role ${role}`);
        assert.ok(counts.moves >= 1, `${name}, role ${role}: no move played`);
        assert.equal(counts.solved, counts.moves, `${name}, role ${role}: every move from the solution`);
      }
    } finally {
      player.free();
      game.free();
    }
  });
}

test('a solution file loads into a player; one of another game is refused', () => {
  const job = new SolveJob(kif('nim'));
  while (!job.step(1 << 20).done) {
    // nim has 232 states
  }
  const file = job.solutionFile();
  job.free();
  const game = new Game(kif('nim'));
  const player = new Player(game, 'mcts:playouts=1', { solution: file });
  try {
    assert.equal(player.solution.stats.states, 232);
    const s = game.initialState();
    // 3 xor 4 xor 5 = 2: the winning move takes 2 from heap a.
    assert.equal(player.selectMove(s, 0), '(take a 2)');
    assert.equal(player.lastMoveSolved, true);
  } finally {
    player.free();
    game.free();
  }
  assert.throws(() => new Player(kif('ticTacToe'), 'mcts', { solution: file }), (e) => e instanceof TypeError && /roles/.test(e.message));
  assert.throws(() => new Player(kif('nim'), 'mcts', { solution: 'not a solution' }), (e) => e instanceof TypeError && /line 1/.test(e.message));
});

test('random and legal players, solution: false and games the solver refuses have no solution', () => {
  const ttt = kif('ticTacToe');
  for (const [text, spec, options] of [
    [ttt, 'random', {}],
    [ttt, 'legal', {}],
    [ttt, 'mcts', { solution: false }],
    [kif('threePlayerTicTacToe'), 'mcts', {}],
  ]) {
    const player = new Player(text, spec, options);
    try {
      assert.equal(player.solution, null, `${spec} ${JSON.stringify(options)}`);
    } finally {
      player.free();
    }
  }
  // Both roles choose at once: solved, the start without a value in pure moves.
  const rps = new Player(kif('rockPaperScissors'), 'mcts', {});
  try {
    assert.equal(rps.solution.complete, true);
    assert.equal(rps.solution.initial, null);
    assert.ok(rps.solution.stats.simultaneous > 0);
  } finally {
    rps.free();
  }
  assert.throws(() => new Player(ttt, 'mcts', { solution: 3 }), TypeError);
  assert.throws(() => new Player(ttt, 'mcts', { solution: { seconds: -1 } }), /seconds/);
});

test('a game too large for the start budget: a partial solution, and the player still moves', () => {
  const game = new Game(kif('connectFour'));
  const player = new Player(game, 'mcts:playouts=50', { solution: { seconds: 5, maxStates: 2000 } });
  try {
    assert.equal(player.solution.complete, false);
    assert.ok(player.solution.stats.states >= 2000);
    const s = game.initialState();
    assert.ok(game.legalMoves(s, 0).includes(player.selectMove(s, 0)));
    // Nothing is proved at the start of connect four: the player searched.
    assert.equal(player.lastMoveSolved, false);
  } finally {
    player.free();
    game.free();
  }
});
