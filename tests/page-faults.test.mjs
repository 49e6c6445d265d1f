// The page survives faults: a worker whose wasm instance traps
// (forced through the test-only `testTrap` job kind, which only workers
// started in test mode accept) is restarted, the page says so, the play view
// reloads its game and replays its moves, and the editor text is kept.
// Hostile games pasted into the editor give diagnostics or errors while the
// page stays responsive. Needs `npm run build` first; runs in headless
// Chromium through Playwright like tests/page.test.mjs.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, SITE } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';
import { chain } from './adversarial.mjs';

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')), 'site/pkg is missing: run `npm run build` first');
  assert.ok(existsSync(join(SITE, 'build', 'app.js')), 'site/build is missing: run `npm run build` first');
  ({ server, url } = await serve({ port: 0, quiet: true }));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page (own storage); `faults`: started in the test mode that accepts `testTrap`. */
async function open(path, { faults = false } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 860 } });
  context.setDefaultTimeout(60_000); // a hang bound only: the machine may be loaded
  if (faults) await context.addInitScript(() => Object.assign(globalThis, { __gdlkitTestFaults: true }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL(path, url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors, context };
}

const historyTexts = (page) => page.locator('.history li').allTextContents();
const boardSymbols = (page) => page.locator('.board .drawing').evaluateAll((ds) => ds.map((d) => d.dataset.content));

/** Clicks the first free cell and waits for the move list to grow. */
async function playFirstFree(page) {
  const before = await page.locator('.history li').count();
  await page.locator('.board button.cell.target').first().click();
  await page.waitForFunction((n) => document.querySelectorAll('.history li').length > n, before, { timeout: 60_000 });
}

test('faults: a trap in the game worker mid-game: message, game and moves reloaded, editor text kept, play goes on', async () => {
  const { page, errors, context } = await open('?view=editor&game=ticTacToe&players=human;human', { faults: true });
  // The user's own text (an edit), then two moves in the play view.
  await page.waitForSelector('.lint-summary.clean');
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; my own note: keep me');
  await page.locator('#tab-play').click();
  await page.waitForSelector('.board button.cell.target');
  await playFirstFree(page);
  await playFirstFree(page);
  const history = await historyTexts(page);
  const board = await boardSymbols(page);
  assert.equal(history.length, 3, 'start and two moves');
  assert.equal(board.length, 2, 'two marks on the board');

  // The trap: the instance dies as it would on a bug.
  const outcome = await page.evaluate(() => globalThis.__gdlkitTrap('game'));
  assert.equal(outcome, 'EngineRestarted', 'the call fails with EngineRestarted');
  // The page says so (notice and play status), and the game is back with its moves.
  await page.locator('#notice').waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await page.locator('#notice').textContent(), /engine stopped unexpectedly .*restarted/i);
  await page.waitForFunction(() => /were reloaded/.test(document.querySelector('.play-status')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await page.locator('.play-status').textContent(), /2 moves were reloaded/);
  assert.deepEqual(await historyTexts(page), history, 'the move list is unchanged');
  assert.deepEqual(await boardSymbols(page), board, 'the board is unchanged');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('gdlkit.site.v1')).text);
  assert.match(saved, /my own note: keep me/, 'the editor text is saved');

  // A further move works on the fresh worker.
  await playFirstFree(page);
  assert.equal((await historyTexts(page)).length, 4);
  assert.deepEqual((await historyTexts(page)).slice(0, 3), history);
  assert.equal((await boardSymbols(page)).length, 3);

  // The editor still has the text.
  await page.locator('#tab-editor').click();
  await page.waitForFunction(() => /my own note: keep me/.test(document.querySelector('.cm-content')?.textContent ?? ''));
  assert.deepEqual(errors, []);
  await context.close();
});

test('faults: a move made while the game worker is dead is replayed onto a fresh one', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=human;human', { faults: true });
  await page.waitForSelector('.board button.cell.target');
  await playFirstFree(page);
  // Kill the worker and move at once: the move either waits for the reload
  // or finds a fresh worker without the game (GdlStaleGame) and reloads it.
  await page.evaluate(() => globalThis.__gdlkitTrap('game'));
  await playFirstFree(page);
  assert.equal((await historyTexts(page)).length, 3, 'both moves are in the list');
  assert.equal((await boardSymbols(page)).length, 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('faults: a trap in the thinking worker: the page says so and the engine still plays', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=human;alphabeta:ms=100', { faults: true });
  await page.waitForSelector('.board button.cell.target');
  await playFirstFree(page);
  await page.waitForFunction(() => document.querySelectorAll('.history li').length >= 3, null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => globalThis.__gdlkitTrap('think')), 'EngineRestarted');
  await page.locator('#notice').waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await page.locator('#notice').textContent(), /engine stopped unexpectedly/i);
  // x moves, and o (the engine) answers on a fresh worker.
  await playFirstFree(page);
  await page.waitForFunction(() => document.querySelectorAll('.history li').length >= 5, null, { timeout: 60_000 });
  assert.equal((await boardSymbols(page)).length, 4);
  assert.deepEqual(errors, []);
  await context.close();
});

const matchRows = (page) => page.locator('.match-moves tbody tr').allTextContents();
const matchOver = () => /Match over/.test(document.querySelector('.match-status')?.textContent ?? '');

/**
 * x (a human) clicks its first legal move, then waits until o has answered
 * too (two more steps) or the match is over. Returns false when the match
 * was over before x was asked (its last move was its only one).
 */
async function matchMove(page) {
  await page.waitForFunction(() => document.querySelector('.match-human .move-btn') || /Match over/.test(document.querySelector('.match-status')?.textContent ?? ''));
  if (await page.evaluate(matchOver)) return false;
  const before = (await matchRows(page)).length;
  await page.locator('.match-human .move-btn').first().click();
  await page.waitForFunction((n) => document.querySelectorAll('.match-moves tbody tr').length >= n + 2 || /Match over/.test(document.querySelector('.match-status')?.textContent ?? ''), before);
  return true;
}

test('faults: a trap in the game worker mid-match (Match view): the match is rebuilt, its steps replayed, and it goes on to the end', async () => {
  const { page, errors, context } = await open('?view=match&game=ticTacToe', { faults: true });
  await page.waitForSelector('.match-seat select[data-role="x"]');
  await page.selectOption('.match-seat select[data-role="x"]', 'human');
  await page.selectOption('.match-seat select[data-role="o"]', 'engine');
  await page.selectOption('.match-seat:nth-child(2) select[aria-label^="Engine"]', 'random');
  // Long clocks: the human (this test) is never timed out on a loaded machine.
  await page.fill('input[aria-label="Start clock (s)"]', '60');
  await page.fill('input[aria-label="Play clock (s)"]', '60');
  await page.click('text=Start match');
  await matchMove(page);
  await matchMove(page);
  const before = await matchRows(page);
  assert.equal(before.length, 4, 'two moves of x and two of o');

  // The match waits for x: no call is in flight. The game worker dies.
  assert.equal(await page.evaluate(() => globalThis.__gdlkitTrap('game')), 'EngineRestarted');
  await page.locator('#notice').waitFor({ state: 'visible' });
  // x moves: the match is rebuilt in a fresh worker and goes on.
  await matchMove(page);
  await page.locator('.match-recovered').waitFor({ state: 'visible' });
  assert.match(await page.locator('.match-recovered').textContent(), /restarted; the match was reloaded and its 4 steps replayed/);
  assert.deepEqual((await matchRows(page)).slice(0, 4), before, 'the steps before the fault are unchanged');
  while (await matchMove(page));
  const rows = await matchRows(page);
  assert.ok(rows.length >= 5, `a whole game: ${rows.length} steps`);
  assert.deepEqual(rows.slice(0, 4), before);
  assert.equal(await page.locator('.match-moves .match-error').count(), 0, 'no substituted move: the replay was faithful');
  assert.deepEqual(errors, []);
  await context.close();
});

test('faults: a trap in an engine seat\'s worker mid-match (Match view): its player is rebuilt from the rules and the steps so far, and plays on without errors', async () => {
  const { page, errors, context } = await open('?view=match&game=ticTacToe', { faults: true });
  await page.waitForSelector('.match-seat select[data-role="x"]');
  await page.selectOption('.match-seat select[data-role="x"]', 'human');
  await page.selectOption('.match-seat select[data-role="o"]', 'engine');
  await page.selectOption('.match-seat:nth-child(2) select[aria-label^="Engine"]', 'legal');
  // Long clocks: neither the human (this test) nor the rebuild is timed out on a loaded machine.
  await page.fill('input[aria-label="Start clock (s)"]', '60');
  await page.fill('input[aria-label="Play clock (s)"]', '60');
  await page.click('text=Start match');
  await matchMove(page);
  await matchMove(page);
  const before = await matchRows(page);
  assert.equal(before.length, 4, 'two moves of x and two of o');

  // o's own worker (ggp-1) dies between two messages: its player session is gone.
  assert.equal(await page.evaluate(() => globalThis.__gdlkitTrap('ggp-1')), 'EngineRestarted');
  await matchMove(page);
  await page.locator('.match-recovered').waitFor({ state: 'visible' });
  assert.match(await page.locator('.match-recovered').textContent(), /engine of o stopped unexpectedly .*its player was rebuilt from the rules and the [45] steps so far/);
  while (await matchMove(page));
  const rows = await matchRows(page);
  assert.ok(rows.length >= 5, `a whole game: ${rows.length} steps`);
  assert.deepEqual(rows.slice(0, 4), before, 'the steps before the fault are unchanged');
  assert.equal(await page.locator('.match-moves .match-error').count(), 0, 'no error and no substituted move: the rebuilt player kept up');
  assert.match(await page.locator('.match-status').textContent(), /Match over/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('faults: without the test mode the trap kind does not exist', async () => {
  const { page, context } = await open('?view=play&game=ticTacToe');
  assert.equal(await page.evaluate(() => typeof globalThis.__gdlkitTrap), 'undefined');
  await context.close();
});

/** Replaces the editor's text as a paste would (one insertion). */
async function paste(page, text) {
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

test('adversarial: hostile games pasted into the editor give diagnostics or errors; the page stays responsive', async (t) => {
  const { page, errors, context } = await open('?view=editor&game=ticTacToe');
  await page.waitForSelector('.lint-summary.clean');
  // 100,000 unclosed parentheses: one syntax error with a location.
  await paste(page, '('.repeat(100000));
  await page.waitForSelector('.lint-summary.has-errors', { timeout: 60_000 });
  assert.match(await page.locator('.lint-summary').textContent(), /error/);
  // A NUL byte and a 5,000-deep term: diagnostics, no fault.
  await paste(page, '(role y\0ou)\n(init (p))\n');
  await page.waitForSelector('.lint-summary.has-errors', { timeout: 60_000 });
  await paste(page, `(role you)\n(init (deep ${'(f '.repeat(5000)}a${')'.repeat(5000)}))\n`);
  await page.waitForFunction(() => document.querySelector('.lint-summary')?.dataset.errors !== undefined, null, { timeout: 60_000 });
  // The 1,000-long closure that once trapped the wasm instance: the play
  // view plays it or says why not; then tic-tac-toe plays in the same page.
  await paste(page, chain(1000));
  await page.waitForSelector('.lint-summary[data-errors="0"]', { timeout: 60_000 });
  await page.locator('#tab-play').click();
  await page.waitForFunction(
    () => document.querySelector('.play-error:not([hidden])') || /Step|Game over/.test(document.querySelector('.play-status')?.textContent ?? ''),
    null,
    { timeout: 60000 },
  );
  t.diagnostic(`chain(1000) in the play view: ${(await page.locator('.play-status').textContent()) || (await page.locator('.play-error').textContent())}`);
  await page.locator('#picker').selectOption('ticTacToe');
  await page.waitForSelector('.board button.cell.target', { timeout: 60_000 });
  await playFirstFree(page);
  assert.deepEqual(errors, []);
  await context.close();
});
