// The page's check wasm (site/pkg-check/, the crate without its `engine`
// feature) answers exactly as the page's engine wasm
// (site/pkg/): the same diagnostics (with their fixes), the same formatted
// text or error, the same fixed text, for every game of games/ and for
// broken and adversarial texts. The editor shows the first from one and
// the rest from the other, so any difference would be visible. Needs
// `npm run build`.

import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECK_FILES, SITE_CHECK_PKG } from '../scripts/build.mjs';
import { ROOT, SITE } from '../scripts/lib.mjs';
import { families, oddTexts } from './adversarial.mjs';

let checkWasm;
let engineWasm;

before(async () => {
  for (const f of CHECK_FILES) assert.ok(existsSync(join(SITE_CHECK_PKG, f)), `site/pkg-check/${f} is missing: run \`npm run build\` first`);
  assert.ok(existsSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')), 'site/pkg is missing: run `npm run build` first');
  checkWasm = await import(join(SITE_CHECK_PKG, 'gdlkit_check.js'));
  checkWasm.initSync({ module: readFileSync(join(SITE_CHECK_PKG, 'gdlkit_check_bg.wasm')) });
  engineWasm = await import(join(SITE, 'pkg', 'gdlkit.js'));
  engineWasm.initSync({ module: readFileSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')) });
});

/** The result of `f(wasm)` or the error it throws (name, message, diagnostics), comparable. */
function outcome(f, wasm) {
  try {
    return { value: f(wasm) };
  } catch (e) {
    return { error: { name: e.name, message: e.message, diagnostics: e.diagnostics } };
  }
}

/** Asserts both wasm builds give the same check, format and fix of `text`; returns the diagnostics. */
function same(label, text) {
  const ops = {
    check: (w) => w.check(text),
    format: (w) => w.format(text),
    fix: (w) => w.fix(text, undefined),
    fixUnsafe: (w) => w.fix(text, { unsafe: true }),
  };
  for (const [op, f] of Object.entries(ops)) {
    assert.deepEqual(outcome(f, checkWasm), outcome(f, engineWasm), `${label}: ${op} differs between the check wasm and the engine wasm`);
  }
  return engineWasm.check(text);
}

/** Broken texts: one for each kind of static problem the editor shows. */
const BROKEN = {
  empty: '',
  unbalanced: '(role x)\n(init (cell 1 1 b)\n(<= terminal (true (done)))\n',
  extraParen: '(role x))\n(init (on))\n',
  unsafeVariable: '(role x)\n(<= (legal x (mark ?m)) (true (free ?n)))\n',
  negationCycle: '(role x)\n(<= p (not q))\n(<= q (not p))\n',
  typo: '(role x)\n(init (cell 1))\n(<= (legal x go) (tru (cell 1)))\n(<= terminal (true (cell 2)))\n(goal x 100)\n',
  wrongArity: '(role x)\n(succ 1 2)\n(<= (next (n ?a)) (true (n ?a ?b)) (succ ?a))\n',
  keywordMisuse: '(role x)\n(<= (true (p)) (role x))\n(<= (does x a) (true (p)))\n',
  nonAscii: '; Schachbrett: Läufer und Türme ♜\n(role weiß)\n(init (feld ä 1 🂡))\n(<= (legal weiß zug) (true (feld ?x ?y ?z))\n',
  variableHead: '(role x)\n(<= ?p (true ?p))\n(<= (goal x ?v) (true (score ?w)))\n',
};

test('the check wasm and the engine wasm give the same diagnostics, formatting and fixes', () => {
  const files = readdirSync(join(ROOT, 'games')).filter((f) => f.endsWith('.kif')).sort();
  let compared = 0;
  let clean = 0;
  for (const file of files) {
    const text = readFileSync(join(ROOT, 'games', file), 'utf8');
    const diags = same(file, text);
    if (!diags.some((d) => d.severity === 'error')) clean++;
    compared++;
  }
  // Floors: the games were there and checked clean (so check ran on real rules).
  assert.ok(compared >= 10, `at least 10 games of games/ compared (${compared})`);
  assert.ok(clean >= 10, `at least 10 games without errors (${clean})`);

  const codes = new Set();
  let withFixes = 0;
  for (const [label, text] of Object.entries(BROKEN)) {
    const diags = same(label, text);
    for (const d of diags) codes.add(d.code);
    if (diags.some((d) => d.fixes?.length)) withFixes++;
  }
  // Floors: the broken texts exercise errors of several kinds, and quick fixes.
  assert.ok(codes.size >= 6, `at least 6 distinct diagnostic codes over the broken texts (${[...codes].join(' ')})`);
  assert.ok(withFixes >= 2, `at least 2 broken texts offer quick fixes (${withFixes})`);
});

test('the check wasm and the engine wasm agree on adversarial and odd texts', () => {
  const texts = {
    deepTerm: families.deepTerm(100000),
    wideRule: families.wideRule(300),
    hugeArity: families.hugeArity(2000),
    termGrowth: families.termGrowth(),
    ...Object.fromEntries(oddTexts().map(([label, bytes]) => [label, new TextDecoder().decode(bytes)])),
  };
  let withErrors = 0;
  for (const [label, text] of Object.entries(texts)) {
    if (same(label, text).some((d) => d.severity === 'error')) withErrors++;
  }
  // Floor: some of them are errors (deep nesting, unclosed parentheses, ...), each with its message.
  assert.ok(withErrors >= 2, `at least 2 of the adversarial texts have errors (${withErrors})`);
});

test('the check wasm has no engine: only check, format, fix and version', () => {
  for (const name of ['check', 'format', 'fix', 'version']) assert.equal(typeof checkWasm[name], 'function', `${name} is exported`);
  for (const name of ['Game', 'search', 'structure', 'AnalysisJob', 'PlayoutJob']) {
    assert.equal(checkWasm[name], undefined, `${name} is not in the check wasm`);
    assert.equal(typeof engineWasm[name], 'function', `${name} is in the engine wasm`);
  }
  assert.equal(checkWasm.version(), engineWasm.version());
});
