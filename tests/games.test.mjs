// The game library (games/): every game passes the validator (no errors)
// and loads, and random play (seeded) reaches a terminal state with a goal
// value for every role. Runs on the wasm build in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';

const GAMES = join(ROOT, 'games');
const MAX_STEPS = 5000;

async function wasm() {
  assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
  const mod = await import(join(PKG, 'gdlkit.js'));
  mod.initSync({ module: readFileSync(join(PKG, 'gdlkit_bg.wasm')) });
  return mod;
}

/** A small seeded PRNG (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const files = readdirSync(GAMES).filter((f) => f.endsWith('.kif')).sort();

test('the library has the games the site promises', () => {
  for (const name of ['ticTacToe', 'ticTacToeLecture', 'connectFour', 'nim', 'breakthrough', 'minichess', 'rockPaperScissors', 'threePlayerTicTacToe']) {
    assert.ok(files.includes(`${name}.kif`), `games/${name}.kif`);
  }
});

for (const file of files) {
  test(`${file}: no validator errors, random games end with goals`, async () => {
    const { check, Game } = await wasm();
    const text = readFileSync(join(GAMES, file), 'utf8');
    assert.match(text, /^;/, 'a game starts with a comment line (its title on the page)');
    const errors = check(text).filter((d) => d.severity === 'error');
    assert.deepEqual(errors.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`), []);
    const game = new Game(text);
    const roles = game.roles();
    for (const seed of [1, 2, 3]) {
      const random = rng(seed);
      let state = game.initialState();
      let steps = 0;
      while (!game.isTerminal(state)) {
        assert.ok(steps < MAX_STEPS, `seed ${seed}: still going after ${MAX_STEPS} steps`);
        const joint = roles.map((_, r) => {
          const moves = game.legalMoves(state, r);
          assert.ok(moves.length > 0, `seed ${seed}, step ${steps}: ${roles[r]} has no legal move`);
          return moves[Math.floor(random() * moves.length)];
        });
        const next = game.next(state, joint);
        game.dropState(state);
        state = next;
        steps += 1;
      }
      const goals = game.goals(state);
      assert.equal(goals.length, roles.length);
      for (const [r, g] of goals.entries()) {
        // GDL-II's `random` role is chance: it has no goals.
        if (roles[r] === 'random') continue;
        assert.ok(Number.isInteger(g) && g >= 0 && g <= 100, `seed ${seed}: goal of ${roles[r]} is ${g}`);
      }
      game.clearStates();
    }
    game.free();
  });
}

test('minichess: the thesis line 1. Kb2 Kb4 2. Rd4# mates', async () => {
  const { Game } = await wasm();
  const game = new Game(readFileSync(join(GAMES, 'minichess.kif'), 'utf8'));
  let s = game.initialState();
  s = game.next(s, ['(move wk c 1 b 2)', 'noop']);
  assert.deepEqual(game.legalMoves(s, 1), ['(move bk a 4 b 4)'], 'after Kb2 black has one move');
  s = game.next(s, ['noop', '(move bk a 4 b 4)']);
  s = game.next(s, ['(move wr d 1 d 4)', 'noop']);
  assert.equal(game.isTerminal(s), true);
  assert.deepEqual(game.goals(s), [100, 0]);
});

test('nim: taking the last coin wins', async () => {
  const { Game } = await wasm();
  const game = new Game(readFileSync(join(GAMES, 'nim.kif'), 'utf8'));
  let s = game.initialState();
  for (const joint of [['(take a 3)', 'noop'], ['noop', '(take b 4)'], ['(take c 5)', 'noop']]) s = game.next(s, joint);
  assert.equal(game.isTerminal(s), true);
  assert.deepEqual(game.goals(s), [100, 0]);
});

test('games() and gameText(): the embedded library is games/, and the CLI takes a game name', async () => {
  const mod = await wasm();
  const names = mod.games().map((g) => g.name);
  assert.deepEqual(names, files.map((f) => f.replace(/\.kif$/, '')));
  for (const g of mod.games()) {
    assert.equal(mod.gameText(g.name), readFileSync(join(GAMES, `${g.name}.kif`), 'utf8'));
    assert.ok(['board', 'puzzle', 'simultaneous', 'n-player', 'lecture', 'chance'].includes(g.category), `${g.name}: ${g.category}`);
  }
  assert.throws(() => mod.gameText('noSuchGame'), /no game named "noSuchGame" in the library/);
  const out = mod.runCli(['play', 'hexapawn', '--seed', '3'], {});
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /goals/i);
  const missing = mod.runCli(['check', 'noSuchGame'], {});
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /no library game has that name either/);
});

test('hexapawn: black wins the race to the far row', async () => {
  const { Game } = await wasm();
  const game = new Game(readFileSync(join(GAMES, 'hexapawn.kif'), 'utf8'));
  let s = game.initialState();
  for (const joint of [['(move 1 1 1 2)', 'noop'], ['noop', '(move 2 3 1 2)'], ['(move 2 1 2 2)', 'noop'], ['noop', '(move 1 2 1 1)']]) s = game.next(s, joint);
  assert.equal(game.isTerminal(s), true);
  assert.deepEqual(game.goals(s), [0, 100]);
});
