// The page test: serves site/ (after `npm run build`), opens it in headless
// Chromium through Playwright, plays a full game of tic-tac-toe by clicking,
// checks the final goals and saves a screenshot to test-artifacts/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, SITE } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')), 'site/pkg is missing: run `npm run build` first');
  ({ server, url } = await serve({ port: 0, quiet: true }));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Clicks the move button of `role`. */
async function click(page, role, move) {
  await page.locator(`button[data-role="${role}"][data-move="${move}"]`).click();
}

test('plays tic-tac-toe to the end by clicking', async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');

  assert.equal(await page.locator('#picker').inputValue(), 'ticTacToe.kif');
  assert.deepEqual(await page.locator('#roles .role h3').allTextContents(), ['x', 'o']);
  assert.equal(await page.locator('#fluents li').count(), 10);
  assert.equal(await page.locator('button[data-role="x"]').count(), 9);
  assert.equal(await page.locator('#goals').isVisible(), false);

  // x takes the top row; o's `noop` is chosen automatically and vice versa.
  const moves = [
    ['x', '(mark 1 1)'],
    ['o', '(mark 2 1)'],
    ['x', '(mark 1 2)'],
    ['o', '(mark 2 2)'],
    ['x', '(mark 1 3)'],
  ];
  for (const [i, [role, move]] of moves.entries()) {
    await click(page, role, move);
    await page.waitForFunction((n) => document.querySelectorAll('#history li').length === n, i + 1);
  }

  await page.locator('#goals').waitFor({ state: 'visible' });
  assert.deepEqual(await page.locator('#goal-list li').allTextContents(), ['x: 100', 'o: 0']);
  assert.match(await page.locator('#status').textContent(), /Game over after 5 steps/);
  assert.ok((await page.locator('#fluents li').allTextContents()).includes('(cell 1 3 x)'));
  assert.equal(await page.locator('#roles button').count(), 0, 'no moves after the end');

  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'page-tictactoe-end.png'), fullPage: true });

  // Undo goes back one step.
  await page.locator('#undo').click();
  assert.equal(await page.locator('#history li').count(), 4);
  assert.equal(await page.locator('#goals').isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a game with a syntax error shows its diagnostics as text', async () => {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#kif').fill('(role x)\n(init (<b>bold</b>)\n');
  await page.locator('#load').click();
  const items = page.locator('#diagnostics li');
  await items.first().waitFor();
  const text = await items.first().textContent();
  assert.match(text, /^2:1 error\[GDL\d+\]/);
  assert.equal(await page.locator('#diagnostics b').count(), 0, 'game text is never parsed as HTML');
  assert.equal(await page.locator('#play').isVisible(), false);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, 'page-syntax-error.png'), fullPage: true });
  await page.close();
});

test('simultaneous moves: both roles choose, then the state advances', async () => {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.locator('#picker').selectOption('rockPaperScissors.kif');
  await page.waitForFunction(() => document.querySelector('#roles .role h3')?.textContent === 'left');
  for (const [left, right] of [
    ['rock', 'scissors'],
    ['paper', 'scissors'],
    ['rock', 'rock'],
  ]) {
    await click(page, 'left', `(throw ${left})`);
    assert.equal(await page.locator('button[data-role="left"][aria-pressed="true"]').count(), 1);
    await click(page, 'right', `(throw ${right})`);
  }
  await page.locator('#goals').waitFor({ state: 'visible' });
  assert.deepEqual(await page.locator('#goal-list li').allTextContents(), ['left: 50', 'right: 50']);
  await page.close();
});
