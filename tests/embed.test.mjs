// Embeds wherever the slides live (docs/site.md, "Embedding"): the custom
// elements loaded from another origin, in a reveal.js deck, and the
// standalone export opened from disk with no network. Two local origins:
// the site (site/, after `npm run build`) on one port with CORS headers,
// and a lecturer's pages on another. Headless Chromium through Playwright.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, ROOT, SITE } from '../scripts/lib.mjs';
import { CORS, serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

const LECTURE = '((3 12 8) (2 4 6) (14 5 2))';

let browser;
const servers = [];
let scratch;

before(async () => {
  assert.ok(existsSync(join(SITE, 'build', 'elements.js')), 'site/build is missing: run `npm run build` first');
  mkdirSync(ARTIFACTS, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'gdlkit-embed-'));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Serves `root`; `host` picks the origin's host name (localhost or 127.0.0.1: two origins). */
async function origin(root, headers, host = 'localhost') {
  const { server, url } = await serve({ root, port: 0, quiet: true, headers });
  servers.push(server);
  return url.replace('localhost', host);
}

/** A lecturer's origin (127.0.0.1, another port): serves `html` as its index page. */
async function lecturerOrigin(name, html, headers) {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), html);
  return origin(dir, headers, '127.0.0.1');
}

/** A page that records errors (uncaught exceptions and console errors). */
async function newPage(options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, ...options });
  context.setDefaultTimeout(60_000); // a hang bound only: the machine may be loaded
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return { context, page, errors };
}

/** A lecturer's page on the second origin: the elements from `site` with one script tag. */
function slidesPage(site, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>slides</title><link rel="icon" href="data:,">
<script type="module" src="${site}build/elements.js"></script>
<style>gdl-tree, gdl-play { display: block; height: 340px; }</style></head>
<body>${body}</body></html>`;
}

/** Steps a <gdl-tree> to its end with the keyboard and returns its root value. */
async function rootValue(page, tree) {
  await tree.locator('.step-counter[data-total="37"]').waitFor({ timeout: 60_000 });
  return rootValueAtEnd(page, tree);
}

/**
 * The values of the pruned nodes in a <gdl-tree>'s text outline, once it
 * shows two (the outline is redrawn in the frame after a step).
 */
async function prunedLeaves(tree) {
  const items = tree.locator('.tree-outline li[data-status="pruned"]');
  await items.nth(1).waitFor({ state: 'attached', timeout: 60_000 });
  return items.evaluateAll((l) => l.map((li) => li.dataset.value));
}

/** The root value of a <gdl-tree> after End. */
async function rootValueAtEnd(page, tree) {
  await tree.locator('.tree-view').focus();
  await page.keyboard.press('End');
  await tree.locator('.root-value').waitFor({ timeout: 60_000 });
  return tree.locator('.root-value').getAttribute('data-value');
}

/** Waits for a <gdl-play> of random players to end; its goals by role. */
async function finalGoals(play) {
  await play.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  return Object.fromEntries(
    await play.locator('.goal-list li').evaluateAll((items) => items.map((li) => [li.dataset.role, Number(li.querySelector('.goal-value').textContent)])),
  );
}

test('elements from another origin (CORS): the lecture tree reaches 3, a random game its goals', async () => {
  const site = await origin(SITE, CORS, 'localhost');
  const slides = await lecturerOrigin(
    'slides',
    slidesPage(site, `<gdl-tree tree="${LECTURE}" algorithm="alphabeta"></gdl-tree>
<gdl-play game="ticTacToe" players="random;random"></gdl-play>`),
  );
  assert.notEqual(new URL(site).origin, new URL(slides).origin);
  const { context, page, errors } = await newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(slides);
  assert.equal(await rootValue(page, page.locator('gdl-tree')), '3');
  const goals = await finalGoals(page.locator('gdl-play'));
  const values = Object.values(goals);
  assert.equal(values.length, 2, `two roles: ${JSON.stringify(goals)}`);
  assert.equal(values[0] + values[1], 100, `tic-tac-toe's goals add up to 100: ${JSON.stringify(goals)}`);
  assert.ok(requests.some((u) => u.startsWith(site) && u.endsWith('gdlkit_bg.wasm')), 'the wasm came from the site');
  await page.screenshot({ path: join(ARTIFACTS, 'embed-cross-origin.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

for (const [what, blocked, pattern] of [
  ['the wasm', (file) => file.endsWith('.wasm'), /gdlkit_bg\.wasm/],
  ['the worker script', (file) => file.endsWith(`${sep}build${sep}worker.js`), /build\/worker\.js/],
]) {
  test(`elements from another origin: blocked ${what} is named in the element, with the missing header`, async () => {
    // CORS on everything else: the element's script runs, then that file cannot be fetched.
    const site = await origin(SITE, (file) => (blocked(file) ? {} : CORS), 'localhost');
    const slides = await lecturerOrigin(`blocked-${what.replace(/\W/g, '-')}`, slidesPage(site, `<gdl-tree tree="${LECTURE}"></gdl-tree>`));
    const { context, page } = await newPage();
    // The tree's script is held until the engine's failure shows: the view
    // that loads after it must leave the alert standing (on a loaded machine
    // the failure can come first).
    let release;
    const held = new Promise((resolve) => {
      release = resolve;
    });
    await page.route(/tree-view-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const chunkLoaded = page.waitForResponse(/tree-view-[^/]*\.js$/);
    await page.goto(slides);
    const alert = page.locator('gdl-tree [role="alert"]');
    await alert.waitFor({ timeout: 60_000 });
    release();
    await chunkLoaded;
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    assert.equal(await page.locator('gdl-tree .tree-view').count(), 0, 'no view drawn over the alert');
    const text = await alert.textContent();
    assert.match(text, pattern, text);
    assert.match(text, /Access-Control-Allow-Origin/, text);
    assert.ok(text.includes(new URL(slides).origin), `names the page's origin: ${text}`);
    await page.screenshot({ path: join(ARTIFACTS, `embed-blocked-${what.replace(/\W/g, '-')}.png`) });
    await context.close();
  });
}

test('workers forbidden by the page (CSP worker-src none): the tree runs on the main thread', async () => {
  const site = await origin(SITE, CORS, 'localhost');
  const slides = await lecturerOrigin('csp', slidesPage(site, `<gdl-tree tree="${LECTURE}"></gdl-tree>`), { 'Content-Security-Policy': "worker-src 'none'" });
  const { context, page } = await newPage();
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto(slides);
  assert.equal(await rootValue(page, page.locator('gdl-tree')), '3');
  assert.deepEqual(workers, [], 'no worker ran');
  await context.close();
});

test('gdlkit/worker without a bundler from another origin (as from a CDN): a search tree in a worker', async () => {
  // The repository root stands for the package on a CDN: js/ and pkg/.
  const cdn = await origin(ROOT, CORS, 'localhost');
  const page = await lecturerOrigin(
    'cdn',
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>cdn</title><link rel="icon" href="data:,"></head><body>
<script type="module">
import { GdlWorker } from '${cdn}js/worker.js';
const worker = new GdlWorker();
try {
  const r = await worker.searchTree('${LECTURE}', { algorithm: 'alphabeta' });
  document.body.dataset.value = String(r.value ?? r.root?.value);
} catch (e) {
  document.body.dataset.error = e.message;
}
</script></body></html>`,
  );
  const { context, page: p, errors } = await newPage();
  const workers = [];
  p.on('worker', (w) => workers.push(w.url()));
  await p.goto(page);
  await p.waitForFunction(() => document.body.dataset.value || document.body.dataset.error, null, { timeout: 60_000 });
  assert.equal(await p.evaluate(() => document.body.dataset.error), undefined);
  assert.equal(await p.evaluate(() => document.body.dataset.value), '3');
  assert.ok(workers.length >= 1 && workers.every((u) => u.startsWith('blob:')), `a same-origin blob worker: ${workers}`);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Runs the npm package's CLI (js/cli.js: the wasm build of crate/cli/src/cli). */
function cli(args) {
  const r = spawnSync(process.execPath, [join(ROOT, 'js', 'cli.js'), ...args], { cwd: scratch, encoding: 'utf8' });
  assert.equal(r.status, 0, `gdlkit ${args.join(' ')}: ${r.stderr}`);
  return r;
}

/** Opens an HTML file from disk with the network disabled; every non-file request is recorded (and fails). */
async function openOffline(file) {
  const opened = await newPage({ offline: true });
  const network = [];
  await opened.context.route(/^(?!file:|data:|blob:)/, (route) => {
    network.push(route.request().url());
    return route.abort();
  });
  await opened.page.goto(pathToFileURL(file).href);
  await opened.page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { ...opened, network };
}

test('standalone export (CLI): the tree file works from file:// offline and steps like the page', async (t) => {
  const file = join(scratch, 'tree.html');
  cli(['export', '--tree', LECTURE, '--out', file]);
  const size = statSync(file).size;
  t.diagnostic(`standalone tree file: ${(size / 1024).toFixed(0)} KiB`);
  const wasm = statSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')).size;
  assert.ok(size > wasm * 1.3, `the page's wasm is inlined (base64): ${size} bytes`);
  const { context, page, errors, network } = await openOffline(file);
  const tree = page.locator('gdl-tree');
  await tree.locator('.step-counter[data-total="37"]').waitFor({ timeout: 60_000 });
  // The same steps as the hosted page (tests/page.test.mjs): the cut-off at step 20 prunes 4 and 6.
  await tree.locator('.tree-view').focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
  await tree.locator('.step-counter[data-step="20"]').waitFor();
  const pruned = await prunedLeaves(tree);
  assert.deepEqual(pruned, ['4', '6']);
  assert.equal(await rootValue(page, tree), '3');
  await page.screenshot({ path: join(ARTIFACTS, 'standalone-tree.png') });
  assert.deepEqual(network, [], 'no network request');
  assert.deepEqual(errors, []);
  await context.close();
});

test('standalone export (CLI): a game file plays a random game to its goals offline', async () => {
  const file = join(scratch, 'game.html');
  cli(['export', join(ROOT, 'games', 'ticTacToe.kif'), '--view', 'play', '--players', 'random;random', '--out', file]);
  const { context, page, errors, network } = await openOffline(file);
  const goals = await finalGoals(page.locator('gdl-play'));
  assert.equal(Object.values(goals).reduce((a, b) => a + b, 0), 100, JSON.stringify(goals));
  await page.screenshot({ path: join(ARTIFACTS, 'standalone-play.png') });
  assert.deepEqual(network, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('standalone export (CLI): a GDL-II game plays offline: the seat sees what it knows, chance draws, the end reveals', async () => {
  const file = join(scratch, 'monty.html');
  cli(['export', join(ROOT, 'games', 'montyHall.kif'), '--view', 'play', '--players', 'human', '--out', file]);
  const { context, page, errors, network } = await openOffline(file);
  const play = page.locator('gdl-play');
  await play.locator('.seat-view[data-role="candidate"] .belief .board').waitFor({ timeout: 60_000 });
  await play.getByRole('button', { name: '(choose 1)' }).click();
  // The host has opened a door (drawn offline by the engine): two doors are in doubt.
  await play.getByRole('button', { name: 'switch', exact: true }).waitFor();
  const doubtful = play.locator('.belief .cell.uncertain');
  for (let i = 0; i < 600 && (await doubtful.count()) !== 2; i++) await page.waitForTimeout(100);
  assert.equal(await doubtful.count(), 2);
  await play.getByRole('button', { name: 'switch', exact: true }).click();
  await play.locator('.reveal').waitFor();
  const goals = await finalGoals(play);
  assert.ok([0, 100].includes(goals.candidate), JSON.stringify(goals));
  await page.screenshot({ path: join(ARTIFACTS, 'standalone-gdl2.png') });
  assert.deepEqual(network, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('standalone export: bad input is refused with a clear message, nothing written', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'js', 'cli.js'), 'export', '--tree', '((3 12', '--out', 'bad.html'], { cwd: scratch, encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--tree: .*unclosed `\(` opened at 1:1/);
  assert.equal(existsSync(join(scratch, 'bad.html')), false);
  const none = spawnSync(process.execPath, [join(ROOT, 'js', 'cli.js'), 'export', '--tree', '(1 2)', '--template', 'missing.html'], { cwd: scratch, encoding: 'utf8' });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /cannot read the standalone template missing\.html/);
});

test('standalone export from the page: "Standalone HTML" downloads the current tree, which works offline', async () => {
  const site = await origin(SITE, undefined, 'localhost');
  const { context, page, errors } = await newPage();
  await page.goto(`${site}?view=tree&tree=${encodeURIComponent(LECTURE)}&step=end`);
  await page.waitForSelector('.root-value[data-value="3"]', { timeout: 60_000 });
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.locator('#download-standalone').click()]);
  assert.equal(download.suggestedFilename(), 'gdlkit-tree.html');
  const file = join(scratch, basename(download.suggestedFilename()));
  await download.saveAs(file);
  assert.deepEqual(errors, []);
  await context.close();
  const offline = await openOffline(file);
  // Saved at the end of the search: the file opens there.
  await offline.page.locator('gdl-tree .root-value[data-value="3"]').waitFor({ timeout: 60_000 });
  assert.deepEqual(offline.network, []);
  assert.deepEqual(offline.errors, []);
  await offline.context.close();
});

test('reveal.js: the deck\'s keys step a tree through fragments; a focused tree takes the keys', async () => {
  assert.ok(existsSync(join(SITE, 'vendor', 'reveal', 'reveal.js')), 'site/vendor/reveal is missing: run `npm run build`');
  const site = await origin(SITE, CORS, 'localhost');
  const { context, page, errors } = await newPage();
  await page.goto(`${site}reveal.html#/1`);
  const tree = page.locator('section.present gdl-tree');
  await tree.locator('.step-counter[data-total="37"]').waitFor({ timeout: 60_000 });
  const step = () => tree.locator('.step-counter').getAttribute('data-step');
  const slide = () => page.evaluate(() => Reveal.getIndices().h);
  assert.equal(await step(), '0');
  // The deck's → shows the fragments, each stepping the tree.
  await page.keyboard.press('ArrowRight');
  await tree.locator('.step-counter[data-step="4"]').waitFor();
  await page.keyboard.press('ArrowRight');
  await tree.locator('.step-counter[data-step="20"]').waitFor();
  assert.deepEqual(await prunedLeaves(tree), ['4', '6']);
  await page.keyboard.press('ArrowRight');
  await tree.locator('.root-value[data-value="3"]').waitFor();
  // ← hides the last fragment: back to its predecessor's step.
  await page.keyboard.press('ArrowLeft');
  await tree.locator('.step-counter[data-step="20"]').waitFor();
  assert.equal(await slide(), 1, 'still on the tree slide');
  // A focused tree takes the arrow keys: the deck stays put.
  await tree.locator('.tree-view').focus();
  await page.keyboard.press('ArrowRight');
  await tree.locator('.step-counter[data-step="21"]').waitFor();
  await page.keyboard.press('ArrowRight');
  await tree.locator('.step-counter[data-step="22"]').waitFor();
  assert.equal(await page.evaluate(() => Reveal.getIndices().f), 1, 'no fragment shown by the tree\'s keys');
  // Esc gives the keys back to the deck (and does not open the overview).
  await page.keyboard.press('Escape');
  assert.equal(await page.evaluate(() => Reveal.isOverview()), false);
  await page.keyboard.press('ArrowRight');
  await tree.locator('.root-value[data-value="3"]').waitFor();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => Reveal.getIndices().h === 2);
  await page.locator('section.present gdl-play .board button.cell').first().waitFor({ timeout: 60_000 });
  await page.screenshot({ path: join(ARTIFACTS, 'reveal-play.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('reveal.js PDF export (?print-pdf): each page prints the tree at its fragment\'s step', async () => {
  const site = await origin(SITE, CORS, 'localhost');
  const { context, page, errors } = await newPage();
  await page.goto(`${site}reveal.html?print-pdf`);
  await page.waitForSelector('.pdf-page');
  const trees = page.locator('.pdf-page gdl-tree');
  await page.waitForFunction(() => [...document.querySelectorAll('.pdf-page gdl-tree')].every((t) => t.shadowRoot?.querySelector('.step-counter[data-total="37"]')), null, { timeout: 60_000 });
  const steps = await trees.evaluateAll((l) => l.map((t) => t.shadowRoot.querySelector('.step-counter').dataset.step));
  assert.deepEqual(steps, ['0', '4', '20', '37'], 'one page per fragment, the tree at its step');
  await page.pdf?.({ path: join(ARTIFACTS, 'reveal.pdf') }).catch(() => {});
  assert.deepEqual(errors, []);
  await context.close();
});

test('standalone export from the page: a tree of the position in Play keeps that position offline', async () => {
  const site = await origin(SITE, undefined, 'localhost');
  const { context, page, errors } = await newPage();
  await page.goto(`${site}?view=play&game=ticTacToe&moves=${encodeURIComponent('(mark 2 2),noop;noop,(mark 1 1)')}&players=human;human`);
  await page.waitForFunction(() => document.querySelectorAll('.history li').length >= 2, null, { timeout: 60_000 });
  await page.locator('#tab-tree').click();
  await page.locator('label.radio', { hasText: 'the position in Play' }).click();
  await page.locator('.tree-form select[aria-label="algorithm"]').selectOption('minimax');
  await page.waitForFunction(() => /nodes searched/.test(document.querySelector('.tree-status')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  await page.waitForSelector('.root-value');
  const hosted = {
    total: await page.locator('.step-counter').getAttribute('data-total'),
    nodes: await page.locator('.pane-counter').getAttribute('data-nodes'),
    value: await page.locator('.root-value').getAttribute('data-value'),
  };
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.locator('#download-standalone').click()]);
  assert.equal(download.suggestedFilename(), 'gdlkit-ticTacToe-tree.html');
  const file = join(scratch, 'position-tree.html');
  await download.saveAs(file);
  assert.deepEqual(errors, []);
  await context.close();
  const html = readFileSync(file, 'utf8');
  assert.match(html, /<gdl-tree [^>]*position="[^"]*\(cell 2 2 x\)/, 'the position is in the file');
  const offline = await openOffline(file);
  const tree = offline.page.locator('gdl-tree');
  await tree.locator(`.step-counter[data-total="${hosted.total}"]`).waitFor({ timeout: 60_000 });
  assert.equal(await tree.locator('.pane-counter').getAttribute('data-nodes'), hosted.nodes, 'the same search as on the page');
  assert.equal(await rootValueAtEnd(offline.page, tree), hosted.value);
  assert.deepEqual(offline.network, []);
  assert.deepEqual(offline.errors, []);
  await offline.context.close();
});
