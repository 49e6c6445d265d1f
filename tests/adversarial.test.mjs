// Games written to break engines (tests/adversarial.mjs) through the npm API
// (wasm, in Node): each gives an answer or a clear GdlError, never a trap;
// and the instance still works afterwards (a trap would poison it: every
// later Game would fail). Runs on the build in pkg/ (`npm run build`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';
import { chain, families, oddTexts } from './adversarial.mjs';

assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
const { Game, runCli, isGdlError } = await import(join(ROOT, 'js', 'node.js'));
const TICTACTOE = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');

/** The instance still plays: tic-tac-toe's initial state has 9 moves for x. */
function stillAlive() {
  const g = new Game(TICTACTOE);
  const s = g.initialState();
  assert.equal(g.legalMoves(s, 0).length, 9);
  g.free?.();
}

/** Runs `f`; any exception must be a gdlkit error (never a RuntimeError from a trap). */
function answerOrGdlError(label, f) {
  try {
    return f();
  } catch (e) {
    assert.ok(isGdlError(e) || e instanceof RangeError, `${label}: ${e?.name}: ${e?.message}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `${label}: a wasm trap`);
    return e;
  } finally {
    stillAlive();
  }
}

test('a recursion 5,000 deep is a clear error in wasm (max_nesting), and the instance lives on', () => {
  // The interpreter recurses through the chain (the fast engine, the
  // default `auto`, grounds it and does not).
  for (const n of [1000, 5000]) {
    const g = new Game(chain(n), { engine: 'interpreter' });
    const s = g.initialState();
    assert.throws(() => g.isTerminal(s), (e) => isGdlError(e) && /max_nesting/.test(e.message));
    stillAlive();
  }
  // Within the limit it is answered.
  const g = new Game(chain(150), { engine: 'interpreter' });
  const s = g.initialState();
  assert.equal(g.isTerminal(s), true);
  assert.deepEqual(g.goals(s), [100]);
});

test('every adversarial family through the CLI in wasm exits 0 or 1', () => {
  const games = {
    chain: chain(2000),
    deepTerm: families.deepTerm(100000),
    wideRule: families.wideRule(300),
    hugeArity: families.hugeArity(2000),
    exponentialJoin: families.exponentialJoin(12),
    termGrowth: families.termGrowth(),
    jointMoves: families.jointMoves(12),
  };
  let runs = 0;
  for (const [name, kif] of Object.entries(games)) {
    for (const args of [['check', 'g.kif'], ['play', 'g.kif', '--max-steps', '30'], ['search', 'g.kif', '--depth', '1', '--heuristic', 'none']]) {
      const out = answerOrGdlError(name, () => runCli(args, { 'g.kif': kif }));
      assert.ok(out.code === 0 || out.code === 1, `${name} ${args[0]}: exit ${out.code}: ${out.stderr}`);
      runs += 1;
    }
  }
  assert.ok(runs >= 20);
});

test('Game on each family: a result or a clear error, never a trap', () => {
  for (const [name, kif] of [['jointMoves', families.jointMoves(12)], ['termGrowth', families.termGrowth()], ['deepTerm', families.deepTerm(100000)]]) {
    answerOrGdlError(name, () => {
      const g = new Game(kif);
      const s = g.initialState();
      return g.legalJointMoves(s);
    });
  }
});

test('byte oddities: a BOM is ignored, a NUL is an error', () => {
  for (const [name, bytes] of oddTexts()) {
    const text = new TextDecoder().decode(bytes);
    const out = runCli(['check', 'g.kif', '--format', 'json'], { 'g.kif': text });
    assert.ok(out.code === 0 || out.code === 1, `${name}: exit ${out.code}`);
    if (name === 'bom' || name === 'cr-only') assert.equal(out.code, 0, `${name}: ${out.stdout}`);
    if (name === 'nul') assert.match(out.stdout, /GDL005/);
    if (name === 'unclosed') assert.match(out.stdout, /100000 `\)`/);
  }
});
