// GDL-II through the npm package: `Game.percepts` gives each role what the
// rules make it see (checked against the rules' own facts, written out here
// from the state, and against the percepts of the CLI's `replay` and of
// seeded playouts), `chanceRole` names `random`, which no match seats,
// `drawChance` is seeded, legal and uniform, and a `Player` told its
// percepts (`observe`) plays from them. Needs `npm run build` (pkg/).

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../scripts/lib.mjs';
import { Game, init, Player, replay, runMatch } from '../js/node.js';

const kif = (name) => readFileSync(join(ROOT, 'games', `${name}.kif`), 'utf8');

before(async () => {
  await init();
});

/** The joint moves and percepts of `count` seeded random games (the native playouts). */
function playouts(game, count) {
  const { games } = game.playouts({ count, seed: 3, record: true });
  assert.equal(games.length, count);
  return games;
}

/**
 * Blind tic-tac-toe's `sees` rules, read off the state: the mover sees
 * `(marked r c)` on a blank cell, `(occupied r c)` on a taken one; the
 * other player sees `moved`.
 */
function blindOracle(fluents, joint) {
  return joint.map((move) => {
    const m = /^\(mark (\d) (\d)\)$/.exec(move);
    if (!m) return joint.some((x) => x.startsWith('(mark')) ? ['moved'] : [];
    const blank = fluents.includes(`(cell ${m[1]} ${m[2]} blank)`);
    return [`(${blank ? 'marked' : 'occupied'} ${m[1]} ${m[2]})`];
  });
}

/** Monty Hall's: the candidate sees the door opened, and the car at step 3. */
function montyOracle(fluents, joint, chance) {
  return joint.map((_move, r) => {
    if (r === chance) return [];
    const seen = [];
    const opened = /^\(open_door (\d)\)$/.exec(joint[chance]);
    if (opened) seen.push(`(opened ${opened[1]})`);
    const car = fluents.find((f) => f.startsWith('(car '));
    if (fluents.includes('(step 3)') && car) seen.push(car);
    return seen.sort();
  });
}

for (const [name, oracle] of [['blindTicTacToe', blindOracle], ['montyHall', montyOracle]]) {
  test(`${name}: percepts are the rules', replay's and the playouts'`, () => {
    const text = kif(name);
    const game = new Game(text);
    try {
      assert.equal(game.isGdl2, true);
      const chance = game.chanceRole();
      const roles = game.roles();
      let steps = 0;
      for (const played of playouts(game, 20)) {
        const replayed = replay(text, played.jointMoves);
        let s = game.initialState();
        played.jointMoves.forEach((joint, i) => {
          const seen = game.percepts(s, joint);
          assert.deepEqual(seen, oracle(game.fluents(s), joint, chance), `step ${i + 1} of ${JSON.stringify(played.jointMoves)}`);
          assert.deepEqual(seen, played.percepts[i]);
          // replay keys each step's percepts by role name.
          assert.deepEqual(seen, roles.map((r) => replayed.steps[i + 1].percepts[r]));
          s = game.next(s, joint);
          steps += 1;
        });
      }
      assert.ok(steps >= 60, `only ${steps} steps compared`);
    } finally {
      game.free();
    }
  });
}

test('GDL-I games perceive nothing and have no chance role', () => {
  const game = new Game(kif('ticTacToe'));
  try {
    const s = game.initialState();
    assert.equal(game.isGdl2, false);
    assert.equal(game.chanceRole(), null);
    assert.deepEqual(game.percepts(s, game.legalJointMoves(s)[0]), [[], []]);
    assert.throws(() => game.drawChance(s, 1), RangeError);
  } finally {
    game.free();
  }
});

test('drawChance: seeded, always legal, every move drawn about equally', () => {
  const game = new Game(kif('montyHall'));
  try {
    const chance = game.chanceRole();
    assert.equal(game.roles()[chance], 'random');
    const s = game.initialState();
    const legal = game.legalMoves(s, chance);
    assert.equal(legal.length, 3);
    const counts = new Map(legal.map((m) => [m, 0]));
    for (let seed = 0; seed < 600; seed++) {
      const move = game.drawChance(s, seed);
      assert.equal(game.drawChance(s, seed), move, 'the same seed draws the same move');
      assert.ok(counts.has(move), `${move} is not legal`);
      counts.set(move, counts.get(move) + 1);
    }
    // 200 expected each; four standard deviations (~11.5) either side.
    for (const [move, n] of counts) assert.ok(n > 150 && n < 250, `${move} drawn ${n} times of 600`);
    assert.throws(() => game.percepts(s, ['(choose 9)', '(hide_car 1)']), { name: 'GdlMoveError' });
  } finally {
    game.free();
  }
});

test('matches never seat random, and record the percepts of every step', () => {
  const text = kif('montyHall');
  const result = runMatch(text, ['random'], { games: 6, seed: 5 });
  assert.equal(result.results.length, 6);
  const chance = result.roles.indexOf('random');
  for (const g of result.results) {
    assert.equal(g.seats[chance], 1, 'random sits at no player');
    assert.equal(g.percepts.length, g.steps);
    assert.ok(g.percepts.some((step) => step[1 - chance].some((p) => p.startsWith('(opened'))), 'the candidate saw a door opened');
  }
});

test('a Player told its percepts (observe) plays Monty Hall from them', () => {
  const game = new Game(kif('montyHall'));
  const player = new Player(game, 'hyperplay:playouts=200', { seed: 1 });
  try {
    const chance = game.chanceRole();
    const candidate = 1 - chance;
    let s = game.initialState();
    let step = 0;
    while (!game.isTerminal(s)) {
      const joint = [];
      joint[chance] = game.drawChance(s, step);
      joint[candidate] = player.selectMove(s, candidate);
      assert.ok(game.legalMoves(s, candidate).includes(joint[candidate]));
      player.observe(candidate, joint[candidate], game.percepts(s, joint)[candidate]);
      s = game.next(s, joint);
      step += 1;
    }
    assert.equal(step, 3);
    // A percept the rules cannot produce leaves no consistent state.
    player.newGame();
    assert.throws(() => player.observe(candidate, '(choose 1)', ['(opened 1)']), { name: 'GdlMoveError' });
    assert.throws(() => player.observe(candidate, '(choose', []), { name: 'GdlMoveError' });
  } finally {
    player.free();
    game.free();
  }
});

test('Game.belief: what Monty Hall\'s candidate knows, with the car\'s chances', () => {
  const game = new Game(kif('montyHall'));
  try {
    const steps = [{ move: '(choose 1)', percepts: [] }, { move: 'noop', percepts: ['(opened 3)'] }];
    const view = game.belief('candidate', steps);
    assert.equal(view.exact, true);
    assert.equal(view.states, 2);
    assert.deepEqual(view.known, ['(chosen 1)', '(closed 1)', '(closed 2)', '(step 3)']);
    assert.deepEqual(view.uncertain.map((u) => u.fluent), ['(car 1)', '(car 2)']);
    assert.ok(Math.abs(view.uncertain[0].chance - 1 / 3) < 1e-9);
    assert.ok(Math.abs(view.uncertain[1].chance - 2 / 3) < 1e-9);
    // Before any step the initial state is known; percepts default to none.
    assert.deepEqual(game.belief(0, []).uncertain, []);
    assert.equal(game.belief(0, [{ move: '(choose 2)' }]).states, 3);
    assert.throws(() => game.belief('candidate', 'x'), { name: 'TypeError' });
    assert.throws(() => game.belief('candidate', [{ move: '(choose 1)', percepts: ['(opened 1)'] }]), { name: 'GdlMoveError' });
    assert.throws(() => game.belief('candidate', [{ move: '(choose' }]), { name: 'GdlMoveError' });
    assert.throws(() => game.belief('nobody', []), RangeError);
  } finally {
    game.free();
  }
});

test('Game.belief: every known fluent holds in the true state along seeded blind tic-tac-toe games', () => {
  const game = new Game(kif('blindTicTacToe'));
  let checked = 0;
  try {
    for (const played of playouts(game, 4)) {
      let s = game.initialState();
      const steps = game.roles().map(() => []);
      played.jointMoves.forEach((joint, i) => {
        const percepts = played.percepts[i];
        s = game.next(s, joint);
        const truth = game.fluents(s);
        joint.forEach((move, r) => {
          steps[r].push({ move, percepts: percepts[r] });
          const view = game.belief(r, steps[r]);
          for (const f of view.known) assert.ok(truth.includes(f), `${f} known but not true`);
          for (const f of truth) assert.ok(view.known.includes(f) || view.uncertain.some((u) => u.fluent === f), `${f} neither known nor uncertain`);
          checked += 1;
        });
      });
    }
  } finally {
    game.free();
  }
  assert.ok(checked >= 20, `only ${checked} views checked`);
});
