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
const { Game, runCli, isGdlError, explain, memoryBudget, setMemoryBudget } = await import(join(ROOT, 'js', 'node.js'));
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

test('a rule of 3,000 or 20,000 literals is a clear error in wasm (max_nesting), not a stack overflow; 300 are answered', () => {
  // The join recurses once per body literal: long bodies count against
  // max_nesting, so the wasm stack cannot overflow (a RangeError there
  // left the instance's stack pointer behind).
  for (const n of [3000, 20000]) {
    const g = new Game(families.wideRule(n), { engine: 'interpreter' });
    const s = g.next(g.initialState(), ['go']);
    assert.throws(() => g.goals(s), (e) => isGdlError(e) && /max_nesting/.test(e.message));
    stillAlive();
  }
  const g = new Game(families.wideRule(300), { engine: 'interpreter' });
  assert.deepEqual(g.goals(g.next(g.initialState(), ['go'])), [60]);
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

// ---- memory and time limits in wasm ----

/** A relation of 40^4 = 2,560,000 rows, read by `terminal` (materialised by the interpreter). */
function wideProduct() {
  const d = Array.from({ length: 40 }, (_, i) => `(d ${i})`).join(' ');
  return `(role you)\n${d}\n(init (step 0))\n(<= (quad ?a ?b ?c ?e) (d ?a) (d ?b) (d ?c) (d ?e))\n(<= (legal you go) (true (step 0)))\n(<= (next (step 1)) (true (step 0)))\n(<= terminal (quad ?a ?b ?c ?e) (true (step 1)))\n(goal you 50)\n`;
}

test('memory: over the budget is a GdlEvalError naming it, not a trap; the instance lives on', () => {
  const before = memoryBudget();
  assert.ok(before.budgetMb >= 1024 && before.budgetMb < 2048, `default budget ${before.budgetMb} MB below the 2 GiB maximum`);
  setMemoryBudget(24);
  try {
    assert.equal(memoryBudget().budgetMb, 24);
    const e = answerOrGdlError('wideProduct', () => {
      const g = new Game(wideProduct(), { engine: 'interpreter' });
      let s = g.initialState();
      s = g.next(s, ['go']);
      return g.isTerminal(s);
    });
    assert.ok(isGdlError(e), `an error, not ${e}`);
    assert.match(e.message, /24 MB of memory.*setMemoryBudget/);
  } finally {
    setMemoryBudget(before.budgetMb);
  }
  assert.equal(memoryBudget().budgetMb, before.budgetMb);
  assert.throws(() => setMemoryBudget(-1), RangeError);
  // Through the CLI: --memory applies to that command only.
  const out = answerOrGdlError('cli --memory', () => runCli(['play', 'g.kif', '--engine', 'interpreter', '--memory', '24'], { 'g.kif': wideProduct() }));
  assert.equal(out.code, 1, out.stderr);
  assert.match(out.stderr, /24 MB of memory/);
  assert.equal(memoryBudget().budgetMb, before.budgetMb);
});

test('explain and structure: time limits in wasm (ms), the CLI accepts --seconds', () => {
  const e = explain(TICTACTOE, { ms: 30000 });
  assert.equal(e.moves.length, 9);
  assert.throws(() => explain(TICTACTOE, { ms: 'soon' }), TypeError);
  for (const command of ['explain', 'structure']) {
    const out = runCli([command, 'g.kif', '--seconds', '20'], { 'g.kif': TICTACTOE });
    assert.equal(out.code, 0, `${command}: ${out.stderr}`);
    assert.equal(runCli([command, 'g.kif', '--seconds', 'inf'], { 'g.kif': TICTACTOE }).code, 2);
  }
});

test('a 100,000-long closure in wasm: a clear error at the time limit, then tic-tac-toe plays', () => {
  const out = answerOrGdlError('chain(100000)', () => runCli(['play', 'g.kif', '--engine', 'interpreter', '--seconds', '1'], { 'g.kif': chain(100000) }));
  assert.ok(out.code === 0 || out.code === 1, out.stderr);
  if (out.code === 1) assert.match(out.stderr, /--seconds|max_nesting/);
});
