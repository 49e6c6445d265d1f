// The JS API fuzzer (tests/js-fuzz.mjs) for a few seconds: every exported
// function and method with arbitrary arguments throws only a TypeError, a
// RangeError or a gdlkit error, never traps, and the instance plays on.
// `GDLKIT_FUZZ_SECONDS` and `GDLKIT_FUZZ_SEED` change the run (`npm run
// fuzz -- --targets js` runs it for longer). Runs on the build in pkg/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from '../scripts/lib.mjs';
import { fuzzApi } from './js-fuzz.mjs';

assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');
const api = await import(join(ROOT, 'js', 'node.js'));

test('the JS API fuzzed at its boundary: only TypeError, RangeError or GdlError, and the instance plays on', () => {
  const seconds = Number(process.env.GDLKIT_FUZZ_SECONDS ?? 3);
  const seed = Number(process.env.GDLKIT_FUZZ_SEED ?? 1);
  const run = fuzzApi(api, { seconds, seed, minCalls: 100 });
  console.log(`js fuzz: seed ${seed}, ${run.calls} calls in ${run.seconds.toFixed(1)} s, slowest ${run.slowest.label} ${run.slowest.ms.toFixed(0)} ms, ${run.failures.length} failures`);
  assert.deepEqual(run.failures, [], `seed ${seed}`);
  // A floor: the run made its calls (it goes on past the time until it has).
  assert.ok(run.calls >= 100, `only ${run.calls} calls`);
});
