// bench/table.mjs (`npm run bench:table`) is a benchmark, not a test: this
// only checks its argument parsing (defaults, games from the project's
// games/ when the corpus is absent, clear errors) and its --dry-run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from '../bench/table.mjs';
import { ROOT } from '../scripts/lib.mjs';

const NO_CORPUS = { corpus: join(ROOT, 'no-such-corpus') };

test('bench:table defaults: 2 s, both engines, three runtimes, the project games without the corpus', () => {
  const o = parseArgs([], NO_CORPUS);
  assert.equal(o.seconds, 2);
  assert.deepEqual(o.engines, ['fast', 'interpreter']);
  assert.deepEqual(o.runtimes, ['native', 'node', 'chromium']);
  assert.deepEqual(o.games.map((g) => g.name), ['ticTacToe', 'connectFour', 'breakthrough']);
  assert.ok(o.games.every((g) => g.file.startsWith(join(ROOT, 'games'))));
  assert.equal(o.champion, false);
});

test('bench:table options', () => {
  const o = parseArgs(['--seconds', '0.5', '--games', 'nim, maze', '--engines', 'fast', '--runtimes', 'native,node', '--champion'], NO_CORPUS);
  assert.equal(o.seconds, 0.5);
  assert.deepEqual(o.games.map((g) => g.name), ['nim', 'maze']);
  assert.deepEqual(o.engines, ['fast']);
  assert.deepEqual(o.runtimes, ['native', 'node']);
  assert.equal(o.champion, true);
  const byPath = parseArgs(['--games', join(ROOT, 'games', 'nim.kif')], NO_CORPUS);
  assert.equal(byPath.games[0].name, 'nim');
});

test('bench:table refuses bad arguments with a message', () => {
  for (const [args, message] of [
    [['--seconds', '0'], /--seconds/],
    [['--seconds'], /needs a value/],
    [['--engines', 'propnet'], /unknown engine propnet/],
    [['--runtimes', 'firefox'], /unknown runtime firefox/],
    [['--games', 'noSuchGame'], /no such game/],
    [['--fast'], /unknown option --fast/],
  ]) {
    assert.throws(() => parseArgs(args, NO_CORPUS), message, args.join(' '));
  }
});

test('bench:table --dry-run lists the cells and runs nothing', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'table.mjs'), '--dry-run', '--games', 'ticTacToe', '--runtimes', 'node'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^2 cells of 2 s: games ticTacToe; engines fast, interpreter; runtimes node$/m);
  assert.doesNotMatch(r.stdout, /playouts per second/);
  const bad = spawnSync(process.execPath, [join(ROOT, 'bench', 'table.mjs'), '--runtimes', 'firefox'], { encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /bench:table failed: --runtimes: unknown runtime firefox/);
});
