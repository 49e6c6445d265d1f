// The game gallery on the page (after `npm run build`): it lists every
// game of games/index.json with the board thumbnails drawn in Rust,
// filters by category and search, and a card opens its game in Play. A
// screenshot goes to test-artifacts/gallery.png.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, ROOT, SITE } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'games', 'index.json')), 'site/games is missing: run `npm run build` first');
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ server, url } = await serve({ port: 0, quiet: true }));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('index.json lists every game of games/ with its header and a thumbnail for each board', () => {
  const index = JSON.parse(readFileSync(join(SITE, 'games', 'index.json'), 'utf8'));
  const files = readdirSync(join(ROOT, 'games')).filter((f) => f.endsWith('.kif')).sort();
  assert.deepEqual(index.map((g) => g.file), files);
  assert.ok(index.length >= 30, `${index.length} games`);
  for (const g of index) {
    assert.ok(g.title && g.category && g.description && g.credit, `${g.name}: header fields`);
    if (g.board) {
      assert.equal(g.thumbnail, `${g.name}.svg`, `${g.name}: its board ${g.board} has a thumbnail`);
      assert.match(readFileSync(join(SITE, 'games', g.thumbnail), 'utf8'), /^<svg/);
    }
  }
});

test('gallery: search, categories, thumbnails, and a card opens the game', async () => {
  const index = JSON.parse(readFileSync(join(SITE, 'games', 'index.json'), 'utf8'));
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(60_000); // a hang bound only: the machine may be loaded
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(new URL('?view=play', url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });

  await page.getByRole('button', { name: 'All games…' }).click();
  const cards = page.locator('.gallery-card');
  await page.waitForFunction((n) => document.querySelectorAll('.gallery-card').length === n, index.length);
  // Every thumbnail loads (decoded images have a width).
  await page.waitForFunction(() => [...document.querySelectorAll('.gallery-card img')].every((img) => img.complete && img.naturalWidth > 0), null, { timeout: 60_000 });
  assert.equal(await page.locator('.gallery-card img').count(), index.filter((g) => g.thumbnail).length);

  await page.getByRole('button', { name: 'Puzzles' }).click();
  const puzzles = index.filter((g) => g.category === 'puzzle').map((g) => g.name).sort();
  assert.deepEqual((await cards.evaluateAll((l) => l.map((c) => c.dataset.name))).sort(), puzzles);
  await page.getByRole('button', { name: 'All', exact: true }).click();

  await page.getByRole('searchbox', { name: 'Search games' }).fill('othello');
  assert.deepEqual(await cards.evaluateAll((l) => l.map((c) => c.dataset.name)), ['reversi']);
  await page.getByRole('searchbox', { name: 'Search games' }).fill('board five');
  const five = await cards.evaluateAll((l) => l.map((c) => c.dataset.name));
  assert.ok(five.includes('pentago'), five.join(' '));
  await page.getByRole('searchbox', { name: 'Search games' }).fill('');
  await page.screenshot({ path: join(ARTIFACTS, 'gallery.png') });

  await page.getByRole('searchbox', { name: 'Search games' }).fill('hex');
  await page.locator('.gallery-card[data-name="hex"] .gallery-open').click();
  await page.waitForFunction(() => document.querySelector('#picker').value === 'hex');
  // The play view shows the hex board: 25 cells.
  await page.waitForFunction(() => document.querySelectorAll('#view-play .cell').length >= 25, null, { timeout: 60_000 });
  await page.screenshot({ path: join(ARTIFACTS, 'gallery-hex.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('?game=NAME opens any library game', async () => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(new URL('?view=editor&game=nineMensMorris', url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  assert.equal(await page.locator('#picker').inputValue(), 'nineMensMorris');
  await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent.includes("Nine Men's Morris"), null, { timeout: 60_000 });
  await context.close();
});

test('gallery: a game of a GGP repository (a local server in ggp-base\'s layout) opens in the page', async () => {
  const rules = readFileSync(join(ROOT, 'games', 'hexapawn.kif'), 'utf8');
  const files = {
    '/base/games/': '["hexapawnRemote", "other"]',
    '/base/games/hexapawnRemote/': '{"version": 1, "gameName": "Remote hexapawn", "rulesheet": "rules.kif"}',
    '/base/games/hexapawnRemote/v1/rules.kif': rules,
    '/base/games/other/': '{"gameName": "no version"}',
  };
  const repoServer = createServer((req, res) => {
    const body = files[req.url];
    res.writeHead(body === undefined ? 404 : 200, { 'Access-Control-Allow-Origin': '*' });
    res.end(body ?? 'not found');
  });
  await new Promise((resolve) => repoServer.listen(0, '127.0.0.1', resolve));
  const repo = `http://127.0.0.1:${repoServer.address().port}/base/`;
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  await page.goto(new URL('?view=editor&gallery=1', url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.getByRole('textbox', { name: 'Repository URL' }).fill(repo);
  await page.getByRole('button', { name: 'List games' }).click();
  await page.waitForSelector('.repo-game[data-key="hexapawnRemote"]');
  await page.getByRole('searchbox', { name: 'Filter the repository' }).fill('oth');
  assert.deepEqual(await page.locator('.repo-game').evaluateAll((l) => l.map((b) => b.dataset.key)), ['other']);
  await page.locator('.repo-game[data-key="other"]').click();
  await page.waitForFunction(() => /no `version`/.test(document.querySelector('.repo-status').textContent));
  await page.getByRole('searchbox', { name: 'Filter the repository' }).fill('');
  await page.screenshot({ path: join(ARTIFACTS, 'gallery-repository.png') });
  await page.locator('.repo-game[data-key="hexapawnRemote"]').click();
  await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent.includes('Hexapawn'), null, { timeout: 60_000 });
  assert.match(await page.locator('#notice').textContent(), /Opened Remote hexapawn/);
  await context.close();
  repoServer.close();
});
