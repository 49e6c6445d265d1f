// The HTTP byte-stream fuzzer (tests/http-fuzz.mjs) for a few seconds against
// the native `gdlkit serve` and the Node one (`npx gdlkit serve`): after
// every hostile stream (its regressions first), a concurrent good client is
// answered within the deadline and the server still runs.
// `GDLKIT_FUZZ_SECONDS` and `GDLKIT_FUZZ_SEED` change the run (`npm run
// fuzz -- --targets http` runs it for longer). Runs on the build in pkg/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PKG } from '../scripts/lib.mjs';
import { fuzzHttp, nativeBinary, REGRESSIONS, startServer } from './http-fuzz.mjs';

assert.ok(existsSync(join(PKG, 'gdlkit_bg.wasm')), 'pkg/ is missing: run `npm run build` first');

test('the GGP servers fuzzed at their socket: a good client is answered within the deadline after every stream', { timeout: 300_000 }, async () => {
  const seconds = Number(process.env.GDLKIT_FUZZ_SECONDS ?? 3);
  const seed = Number(process.env.GDLKIT_FUZZ_SEED ?? 1);
  const servers = await Promise.all([startServer('node', ['--player', 'random']), startServer('native', ['--player', 'random'], nativeBinary())]);
  try {
    const run = await fuzzHttp(servers, { seconds, seed, minCases: 10 });
    console.log(`http fuzz: seed ${seed}, ${run.cases} cases in ${run.seconds.toFixed(1)} s, ${run.failures.length} failures`);
    assert.deepEqual(run.failures, [], `seed ${seed}`);
    // A floor: every server got the regressions and ten random cases.
    assert.ok(run.cases >= 2 * (REGRESSIONS.length + 10), `only ${run.cases} cases`);
  } finally {
    for (const s of servers) s.child.kill();
  }
});
