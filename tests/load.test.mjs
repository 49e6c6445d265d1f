// The first-load budget: on a slow connection the page's editor
// is interactive after at most 350 KiB on the wire (gzip), and the engine's
// wasm is not among what it waits for; the first diagnostics come from the
// small check wasm, and the engine's wasm is requested only once the check
// wasm is in. Bytes and order only, never times (the times are `npm run
// bench:load`'s). Needs `npm run build` and Chromium.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { measureFirstLoad, SLOW_3G } from '../scripts/first-load.mjs';
import { CHROMIUM_ARGS, SITE } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

const BUDGET = 350 * 1024;

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'build', 'app.js')), 'site/build is missing: run `npm run build` first');
  ({ server, url } = await serve({ port: 0, quiet: true, gzip: true }));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('first load: the editor is interactive after at most 350 KiB gzip, before any wasm; the first diagnostics from the check wasm, the engine wasm after it', async (t) => {
  const r = await measureFirstLoad(browser, url, { network: SLOW_3G, engine: true });
  const early = r.requests.filter((q) => q.startedMs < r.editorMs);
  t.diagnostic(`before the editor was interactive: ${(r.beforeEditor / 1024).toFixed(1)} KiB in ${early.length} requests; in all ${(r.total / 1024).toFixed(1)} KiB`);
  // Floors: the measurement saw the page, its script and the editor's code.
  assert.ok(early.some((q) => q.url.endsWith('/build/app.js')), 'app.js was counted');
  assert.ok(r.beforeEditor > 50 * 1024, `at least the editor's code was counted (${r.beforeEditor} bytes)`);
  assert.deepEqual(early.filter((q) => q.url.endsWith('.wasm')).map((q) => q.url), [], 'no wasm before the editor is interactive');
  assert.ok(r.beforeEditor <= BUDGET, `${r.beforeEditor} bytes on the wire before the editor is interactive, budget ${BUDGET}`);

  // The first diagnostics came from the small check wasm (its worker says
  // which wasm answered), and the engine's wasm was requested only after
  // the check wasm had arrived (it waits for the check worker to be ready:
  // engine/client.js), so it did not share the slow line with it. Order,
  // not time: the check wasm takes ~0.7 s on this line, the margin below
  // only absorbs the clocks of the two requests' timings.
  const checkWasm = r.requests.filter((q) => q.url.endsWith('/pkg-check/gdlkit_check_bg.wasm'));
  const engineWasm = r.requests.filter((q) => q.url.endsWith('/pkg/gdlkit_bg.wasm'));
  t.diagnostic(`check wasm ${checkWasm.map((q) => q.bytes)} bytes on the wire, engine wasm ${engineWasm.map((q) => q.bytes)}`);
  assert.equal(r.diagnostics.wasm, 'check', 'the first diagnostics came from the check wasm');
  assert.equal(checkWasm.length, 1, 'the check wasm was fetched once');
  assert.ok(checkWasm[0].startedMs < r.diagnosticsMs, 'the check wasm was requested before the first diagnostics');
  assert.equal(engineWasm.length, 1, 'the engine wasm was fetched once, afterwards (the test waited for it)');
  assert.ok(Number.isFinite(checkWasm[0].endedMs), 'the check wasm has an end time');
  assert.ok(engineWasm[0].startedMs > checkWasm[0].endedMs - 100, `the engine wasm was requested after the check wasm was in (${engineWasm[0].startedMs} > ${checkWasm[0].endedMs})`);
  assert.ok(r.diagnosticsMs < r.engineMs, `the first diagnostics came before the engine was ready (${r.diagnosticsMs} < ${r.engineMs})`);
  assert.ok(checkWasm[0].bytes < engineWasm[0].bytes / 3, `the check wasm is a fraction of the engine's (${checkWasm[0].bytes} against ${engineWasm[0].bytes} bytes)`);
});

test('without the check wasm (blocked) the editor gets its diagnostics from the engine', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    await context.route('**/pkg-check/**', (route) => route.abort());
    const page = await context.newPage();
    await page.goto(new URL('?view=editor&game=ticTacToe', url).href);
    await page.waitForFunction(() => performance.getEntriesByName('gdlkit:diagnostics').length > 0, null, { timeout: 120000 });
    const detail = await page.evaluate(() => performance.getEntriesByName('gdlkit:diagnostics')[0].detail);
    assert.equal(detail.wasm, 'engine', 'the engine answered');
    assert.equal(typeof detail.count, 'number');
    assert.equal(await page.locator('#notice').isVisible(), false, 'no notice of a failed engine');
  } finally {
    await context.close();
  }
});
