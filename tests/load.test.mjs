// The first-load budget (issue 17): on a slow connection the page's editor
// is interactive after at most 350 KiB on the wire (gzip), and the engine's
// wasm is not among what it waits for. Bytes only, never times (the times
// are `npm run bench:load`'s). Needs `npm run build` and Chromium.

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

test('first load: the editor is interactive after at most 350 KiB gzip, before the wasm', async (t) => {
  const r = await measureFirstLoad(browser, url, { network: SLOW_3G });
  const early = r.requests.filter((q) => q.startedMs < r.editorMs);
  t.diagnostic(`before the editor was interactive: ${(r.beforeEditor / 1024).toFixed(1)} KiB in ${early.length} requests; in all ${(r.total / 1024).toFixed(1)} KiB`);
  // Floors: the measurement saw the page, its script and the editor's code.
  assert.ok(early.some((q) => q.url.endsWith('/build/app.js')), 'app.js was counted');
  assert.ok(r.beforeEditor > 50 * 1024, `at least the editor's code was counted (${r.beforeEditor} bytes)`);
  assert.ok(r.requests.some((q) => q.url.endsWith('.wasm')), 'the engine loaded afterwards (the first diagnostic came from it)');
  assert.deepEqual(early.filter((q) => q.url.endsWith('.wasm')).map((q) => q.url), [], 'no wasm before the editor is interactive');
  assert.ok(r.beforeEditor <= BUDGET, `${r.beforeEditor} bytes on the wire before the editor is interactive, budget ${BUDGET}`);
});
