// The page's engine on threads (after `npm run build`): served
// cross-origin isolated, as `npm start` serves it, the page's thinking
// worker runs the wasm built with shared memory (site/pkg-threads/) with
// one thread per core, and an engine seat with `cores=2` thinks in that
// one worker on two threads, one tree (engine/worker-threads.js), instead
// of on two workers that share nothing. Served without the headers, the
// page's service worker (site/isolation-sw.js) adds them after one reload;
// with service workers blocked, the same seat uses two workers
// (tests/page.test.mjs covers that path).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, SITE } from '../scripts/lib.mjs';
import { ISOLATION, serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'build', 'worker-threads.js')), 'site/build is missing: run `npm run build` first');
  ({ server, url } = await serve({ port: 0, quiet: true, headers: ISOLATION }));
  // Two cores for the page, whatever the machine has: the engine starts one thread worker.
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/**
 * A page of the isolated site at `path` on two cores: its errors (console
 * errors too, unless `faults`, whose trap the page logs) and the URLs of
 * the workers it starts. `faults`: the page test's trap mode.
 */
async function open(path, { faults = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(60_000); // a hang bound only: the machine may be loaded
  await context.addInitScript((testFaults) => {
    Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 });
    if (testFaults) Object.assign(globalThis, { __gdlkitTestFaults: true });
  }, faults);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  if (!faults) page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(new URL(path, url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors, workers, context };
}

test('play: MCTS-Solver with cores=2 on two threads of one worker, a whole game it does not lose', async () => {
  const { page, errors, workers, context } = await open('?view=play&game=ticTacToe&players=mcts-solver:ms=200,cores=2;random');
  assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true);
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  assert.ok((await page.locator('.history li').count()) >= 6, 'a game of at least five moves');
  // Tic-tac-toe's first player, searched to its proofs, never loses to random moves.
  assert.notEqual(await page.locator('.goal-list li[data-role="x"] .goal-value').textContent(), '0');
  // The engine said it thought on two threads, and no second thinking worker started.
  assert.match(await page.locator('.play-status').getAttribute('title'), /2 threads/);
  assert.ok(workers.some((u) => u.includes('worker-threads.js')), workers.join(' '));
  assert.ok(workers.some((u) => u.includes('thread-worker.js')), workers.join(' '));
  assert.equal(workers.filter((u) => /\/worker\.js/.test(u)).length <= 3, true, workers.join(' '));
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: a trap in the engine on threads restarts its worker, threads and all, and the engine plays on', async () => {
  const { page, errors, workers, context } = await open('?view=play&game=ticTacToe&players=human;mcts-solver:ms=100,cores=2', { faults: true });
  assert.equal(await page.evaluate(() => globalThis.__gdlkitTrap('think')), 'EngineRestarted');
  // x (human) moves; o's engine answers from a new worker with new threads.
  await page.locator('.board button.cell.target').first().click();
  await page.waitForFunction(() => document.querySelectorAll('.history li').length >= 3, null, { timeout: 60_000 });
  assert.match(await page.locator('.play-status').getAttribute('title'), /2 threads/);
  const threadWorkers = workers.filter((u) => u.includes('thread-worker.js'));
  assert.ok(threadWorkers.length >= 2, `thread workers started: ${threadWorkers.length}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a host without the headers: the service worker isolates the page after one reload, and the engine thinks on threads', async () => {
  const plain = await serve({ port: 0, quiet: true }); // a static host: no COOP/COEP
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    context.setDefaultTimeout(60_000);
    await context.addInitScript(() => Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => 2 }));
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const workers = [];
    page.on('worker', (w) => workers.push(w.url()));
    await page.goto(new URL('?view=play&game=ticTacToe&players=mcts-solver:ms=200,cores=2;random', plain.url).href);
    await page.waitForFunction(() => globalThis.crossOriginIsolated === true, null, { timeout: 60_000 });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    assert.equal(await page.evaluate(() => sessionStorage.getItem('gdlkit-isolation-reloaded')), '1', 'isolated by the reload');
    await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
    assert.match(await page.locator('.play-status').getAttribute('title'), /2 threads/);
    assert.ok(workers.some((u) => u.includes('thread-worker.js')), workers.join(' '));
    // `?isolation=off` takes the worker away again, and the page reloads without it.
    await page.goto(new URL('?view=editor&isolation=off', plain.url).href);
    await page.waitForFunction(() => globalThis.crossOriginIsolated === false, null, { timeout: 60_000 });
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()) === undefined), true);
    await page.goto(new URL('?view=editor', plain.url).href);
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), false, 'the worker is gone: the next visit starts unisolated');
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    plain.server.close();
  }
});

test('match: two engine seats, each in its own worker on two threads, play a whole match without errors', async () => {
  const { page, errors, workers, context } = await open('?view=match&game=ticTacToe');
  await page.waitForSelector('.match-seat select[data-role="x"]');
  await page.selectOption('.match-seat select[data-role="x"]', 'engine');
  await page.selectOption('.match-seat select[data-role="o"]', 'engine');
  await page.fill('input[aria-label="Start clock (s)"]', '10');
  await page.fill('input[aria-label="Play clock (s)"]', '2');
  await page.click('text=Start match');
  await page.waitForFunction(() => /Match over/.test(document.querySelector('.match-status')?.textContent ?? ''), null, { timeout: 120_000 });
  assert.ok((await page.locator('.match-moves tbody tr').count()) >= 5, 'a whole game');
  assert.equal(await page.locator('.match-moves .match-error').count(), 0, 'no error or timeout on either seat');
  const threadWorkers = workers.filter((u) => u.includes('thread-worker.js'));
  assert.ok(threadWorkers.length >= 2, `a thread worker beside each seat's worker: ${threadWorkers.length}`);
  assert.deepEqual(errors, []);
  await context.close();
});
