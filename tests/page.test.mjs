// The page test: serves site/ (after `npm run build`) and drives it in
// headless Chromium through Playwright: live diagnostics in the editor,
// a full game of tic-tac-toe against the engine, stepping the lecture's
// alpha-beta tree, embeds, the custom elements of the example deck,
// autosave across a reload. Screenshots of each view go to test-artifacts/.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, ROOT, SITE } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';
import { Game, groundReport, heuristics as registryHeuristics, players as registryPlayers, SolveJob, solve, solveSymbolic } from '../js/node.js';
import { GdlWorker } from '../js/worker-node.js';

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')), 'site/pkg is missing: run `npm run build` first');
  assert.ok(existsSync(join(SITE, 'build', 'app.js')), 'site/build is missing: run `npm run build` first');
  mkdirSync(ARTIFACTS, { recursive: true });
  ({ server, url } = await serve({ port: 0, quiet: true }));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** A fresh page (own storage) that records errors. */
async function open(path, { context, viewport = { width: 1280, height: 860 } } = {}) {
  const ctx = context ?? (await browser.newContext({ serviceWorkers: 'block', viewport }));
  ctx.setDefaultTimeout(60_000); // a hang bound only: the machine may be loaded
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(new URL(path, url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  return { page, errors, context: ctx };
}

/** The play view with `kif` loaded through the URL hash (deflated, as a shared link carries it). */
async function openPlayWithKif(kif) {
  const opened = await open('?view=play');
  const b64 = await opened.page.evaluate(async (text) => {
    const bytes = new TextEncoder().encode(text);
    const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
    const buf = new Uint8Array(await new Response(stream).arrayBuffer());
    return btoa(String.fromCharCode(...buf)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }, kif);
  // The reload is Playwright's: one started inside evaluate() can destroy
  // its context before it returns.
  await opened.page.evaluate((hash) => {
    location.hash = hash;
  }, `view=play&kif=${b64}`);
  await opened.page.reload();
  return opened;
}

/** After the frame already requested (the tree's canvas, outline and counters are drawn in requestAnimationFrame). */
const frame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));

const shot = (page, name) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
// How fast the page reacts (keystroke to diagnostic, cancel) is printed with
// t.diagnostic, never asserted: those waits keep Playwright's default timeout,
// as a loaded machine is no failure (no timing assertions in tests).

test('editor: an error is underlined, and goes when fixed (the latency is printed, not asserted)', async (t) => {
  const { page, errors, context } = await open('?view=editor&game=ticTacToe');
  await page.waitForSelector('.lint-summary.clean');
  await shot(page, 'view-editor');
  // Type an unbalanced `)` at the end: GDL001.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n(role extra)');
  await page.waitForSelector('.lint-summary.clean');
  const typed = Date.now();
  await page.keyboard.type(')');
  await page.waitForSelector('.lint-summary.has-errors');
  await page.waitForSelector('.cm-lintRange-error');
  t.diagnostic(`keystroke to diagnostic: ${Date.now() - typed} ms`);
  assert.match(await page.locator('.lint-summary').textContent(), /1 error/);
  assert.ok((await page.locator('.cm-lint-marker-error').count()) >= 1, 'a gutter mark');
  // The problems panel lists it, with its quick fix.
  await page.locator('.lint-summary').click();
  await page.waitForSelector('.cm-panel.cm-panel-lint');
  assert.match(await page.locator('.cm-panel.cm-panel-lint').textContent(), /GDL001/);
  await shot(page, 'view-editor-error');
  await page.locator('.cm-panel.cm-panel-lint button', { hasText: 'Remove )' }).first().click();
  await page.waitForSelector('.lint-summary.clean');
  assert.equal(await page.locator('.cm-lintRange-error').count(), 0);
  // Typing the error again and deleting it by hand clears it too.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(')');
  await page.waitForSelector('.lint-summary.has-errors');
  await page.keyboard.press('Backspace');
  await page.waitForSelector('.lint-summary.clean');
  // Auto-indent: a new line inside a rule lines up under its first argument.
  await page.keyboard.type('\n(<= (goal ?player 75) (role ?player)');
  await page.keyboard.press('Enter');
  await page.keyboard.type('(line   ?player))');
  assert.equal(await page.locator('.cm-activeLine').textContent(), '    (line   ?player))');
  // The formatter rewrites the layout as one change.
  await page.locator('button', { hasText: 'Format' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('.cm-line')].some((l) => l.textContent === '    (line ?player))'));
  assert.deepEqual(errors, []);
  await context.close();
});

// The largest game of the shared corpus: read at test time, never shipped with the site.
const LARGE = join(ROOT, '..', 'shared', 'games', 'repository', 'duplicateStateLarge.kif');

test('editor: diagnostics within a second on the largest corpus game', { skip: !existsSync(LARGE) && `${LARGE} not found` }, async (t) => {
  const kif = deflateSync(readFileSync(LARGE)).toString('base64url');
  const { page, errors, context } = await open(`?embed=1#view=editor&kif=${kif}`);
  await page.waitForSelector('.lint-summary[data-errors="0"]', { timeout: 60_000 });
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  const typed = Date.now();
  await page.keyboard.type(')');
  await page.waitForSelector('.lint-summary[data-errors="1"]');
  const latency = Date.now() - typed;
  await page.waitForSelector('.cm-lintRange-error');
  await page.keyboard.press('Backspace');
  await page.waitForSelector('.lint-summary[data-errors="0"]');
  t.diagnostic(`keystroke to diagnostics on duplicateStateLarge.kif: ${latency} ms (150 ms of it the editor's debounce)`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: a full game of tic-tac-toe against the engine', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=human;alphabeta:ms=100');
  await page.waitForSelector('.board button.cell');
  assert.equal(await page.locator('.board button.cell').count(), 9, 'a 3x3 board drawn from the rules');
  // The players come from the engine's registry: the URL's spec, parsed in Rust, selects alpha-beta at 0.1 s for o,
  // and the engines offered are exactly the registry's players but `random` (the kind Random) and `legal` (no budget).
  assert.equal(await page.locator('select[aria-label="who plays x"]').inputValue(), 'human');
  assert.equal(await page.locator('select[aria-label="who plays o"]').inputValue(), 'engine');
  assert.equal(await page.locator('select[aria-label="engine for o"]').inputValue(), 'alphabeta');
  assert.equal(await page.locator('select[aria-label="time per move for o"]').inputValue(), '100');
  const offered = await page.locator('select[aria-label="engine for o"] option').evaluateAll((os) => os.map((o) => o.value));
  const registry = registryPlayers().map((p) => p.name);
  assert.ok(registry.length >= 5, `the registry lists its players: ${registry}`);
  assert.deepEqual(offered, registry.filter((n) => n !== 'random' && n !== 'legal'));
  await shot(page, 'view-play');
  // x (human) always takes the first free cell, by clicking the board; o is the engine.
  for (let turn = 0; turn < 5; turn++) {
    await page.waitForFunction(() => /x to move|Game over/.test(document.querySelector('.play-status')?.textContent ?? ''), null, { timeout: 60_000 });
    if (await page.locator('.goals:not([hidden])').count()) break;
    const before = await page.locator('.history li').count();
    await page.locator('.board button.cell.target').first().click();
    await page.waitForFunction((n) => document.querySelectorAll('.history li').length > n, before);
  }
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  const goals = Object.fromEntries(
    await page.locator('.goal-list li').evaluateAll((items) => items.map((li) => [li.dataset.role, Number(li.querySelector('.goal-value').textContent)])),
  );
  assert.ok(goals.o >= 50, `the engine does not lose to first-free-cell play: ${JSON.stringify(goals)}`);
  assert.equal(goals.x + goals.o, 100);
  assert.match(await page.locator('.play-status').textContent(), /Game over/);
  await shot(page, 'view-play-end');
  // Undo goes back to x's last turn; redo returns to the end.
  await page.locator('button', { hasText: 'Undo' }).click();
  await page.waitForFunction(() => /Viewing step/.test(document.querySelector('.play-status').textContent));
  assert.equal(await page.locator('.goals').isVisible(), false);
  await page.locator('button', { hasText: 'Redo' }).click();
  await page.locator('.goals').waitFor({ state: 'visible' });
  // Restart: back to the empty board, x to move.
  await page.locator('button', { hasText: 'Restart' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.history li').length === 1);
  assert.equal(await page.locator('.board .drawing').count(), 0, 'an empty board');
  assert.equal(await page.locator('.board button.cell.target').count(), 9);
  assert.match(await page.locator('.play-status').textContent(), /x to move/);
  // Two random players play a whole game by themselves.
  await page.locator('select[aria-label="who plays x"]').selectOption('random');
  await page.locator('select[aria-label="who plays o"]').selectOption('random');
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  assert.ok((await page.locator('.history li').count()) >= 6, 'a random game lasts at least five moves');
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: without players in the URL, the first role is human and the others the default engine', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe');
  await page.waitForSelector('select[aria-label="engine for o"]');
  assert.equal(await page.locator('select[aria-label="who plays x"]').inputValue(), 'human');
  assert.equal(await page.locator('select[aria-label="who plays o"]').inputValue(), 'engine');
  // `gdlkit serve`'s default player, one second a move, on all cores.
  assert.equal(await page.locator('select[aria-label="engine for o"]').inputValue(), 'mcts-solver');
  assert.equal(await page.locator('select[aria-label="time per move for o"]').inputValue(), '1000');
  assert.equal(await page.locator('select[aria-label="cores for o"]').inputValue(), 'auto');
  assert.deepEqual(errors, []);
  await context.close();
});

/** The texts of the elements matching `selector`. */
const texts = (page, selector) => page.locator(selector).allTextContents();

test('play: blind tic-tac-toe between two humans: a cover between the seats, each sees only its own moves, all revealed at the end', async () => {
  const { page, errors, context } = await open('?view=play&game=blindTicTacToe&players=human;human');
  // x takes row 1 while o marks elsewhere: x wins on its third mark.
  const plan = [['x', '(mark 1 1)'], ['o', '(mark 2 2)'], ['x', '(mark 1 2)'], ['o', '(mark 3 3)'], ['x', '(mark 1 3)']];
  const own = { x: [], o: [] };
  for (const [role, move] of plan) {
    const other = role === 'x' ? 'o' : 'x';
    // The cover is up for the seat to play: nothing of either view is in the page.
    const cover = page.locator(`.seat-cover-button[data-role="${role}"]`);
    await cover.waitFor();
    assert.equal(await cover.textContent(), `Player ${role}’s turn — click to show`);
    assert.equal(await page.locator('.seat-view, .role-moves, .reveal').count(), 0);
    assert.ok(!(await page.locator('.play').textContent()).includes('(mark'), 'no move text under the cover');
    await cover.click();
    await page.locator(`.seat-view[data-role="${role}"]`).waitFor();
    // The seat's board is what it knows: its own marks, the cells the other
    // may have marked in doubt (after it moved), never the other's marks.
    await page.locator(`.seat-view[data-role="${role}"] .belief .board`).waitFor();
    const titles = await page.locator('.board-box [data-cell]').evaluateAll((els) => els.map((e) => e.title));
    const drawn = (mark) => titles.map((t) => new RegExp(`^\\(cell (\\d) (\\d) ${mark}\\)$`).exec(t)).filter(Boolean).map((m) => `${m[1]} ${m[2]}`).sort();
    assert.deepEqual(drawn(role), own[role].map((m) => m.slice(6, 9)).sort(), `${role}'s board shows its own marks`);
    assert.deepEqual(drawn(other), [], `${role}'s board shows none of ${other}'s marks`);
    const doubtful = await page.locator('.belief .cell.uncertain').count();
    // Once the other has marked, any cell but the seat's own may hold its mark.
    assert.equal(doubtful, own[other].length ? 9 - own[role].length : 0, `${role}: cells in doubt`);
    // The seat's view lists its own moves only, the move list too.
    const played = (await texts(page, '.seen-move')).map((t) => t.replace(/^step \d+: played /, ''));
    assert.deepEqual(played.filter((m) => m !== 'noop'), own[role]);
    for (const m of own[other]) {
      assert.ok(!played.includes(m) || own[role].includes(m), `${role} sees ${other}'s ${m}`);
    }
    const history = (await texts(page, '.history li button')).slice(1).map((t) => t.replace(/^\d+\. /, ''));
    assert.deepEqual(history.filter((m) => m !== 'noop'), own[role]);
    assert.equal(await page.locator(`.role-moves[aria-label="moves of ${other}"]`).count(), 0);
    await page.locator(`.role-moves[aria-label="moves of ${role}"] button.move[data-move="${move}"]`).click();
    own[role].push(move);
  }
  // The end reveals the board, every move and every percept.
  await page.locator('.reveal').waitFor();
  assert.match(await page.locator('.play-status').textContent(), /Game over.*x wins/);
  const revealed = (await texts(page, '.reveal-move')).join('\n');
  for (const [role, move] of plan) assert.ok(revealed.includes(`${role}: ${move} — saw (marked ${move.slice(6, 9)})`), `${role} ${move} in ${revealed}`);
  assert.ok(revealed.includes('o: noop — saw moved'));
  assert.equal(await page.locator('.seat-cover').count(), 0);
  const history = (await texts(page, '.history li button')).slice(1).join(' ');
  for (const [, move] of plan) assert.ok(history.includes(move), `${move} in the move list`);
  await shot(page, 'view-play-gdl2-reveal');
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: Monty Hall against chance: its draws are the engine\'s, the candidate sees the opened door, the end reveals the draws', async () => {
  const { page, errors, context } = await open('?view=play&game=montyHall');
  await page.locator('.role-row[data-role="random"]').waitFor();
  // `random` is no seat: no choice of player for it.
  assert.equal(await page.locator('select[aria-label="who plays random"]').count(), 0);
  assert.equal(await page.locator('select[aria-label="who plays candidate"]').inputValue(), 'human');
  await page.locator('.seat-view[data-role="candidate"]').waitFor();
  await page.getByRole('button', { name: '(choose 1)' }).click();
  // The host's door is drawn by itself; the candidate sees it, never the car.
  await page.waitForFunction(() => [...document.querySelectorAll('.seen-percepts')].some((e) => e.textContent.includes('(opened')));
  const seen = (await texts(page, '.seen-percepts')).join(' ');
  const opened = /\(opened (\d)\)/.exec(seen)[1];
  assert.notEqual(opened, '1', 'the host never opens the chosen door');
  // What the candidate knows, on the doors: the car behind its door with chance 1/3, behind the other closed one 2/3.
  await page.locator('.belief .cell.uncertain').first().waitFor();
  const other = ['2', '3'].find((d) => d !== opened);
  const doubts = await page.locator('.belief .cell.uncertain').evaluateAll((els) => els.map((e) => `${e.dataset.cell} ${e.title}`));
  assert.deepEqual(doubts.sort(), [`1| may hold car 33%`, `${other}| may hold car 67%`].sort());
  assert.equal(await page.locator('.belief [data-cell="1|"] svg[data-content="closed chosen"]').count(), 1, 'the chosen door is known');
  const view = await page.locator('.play').textContent();
  for (const hidden of ['(car', 'hide_car', 'open_door']) assert.ok(!view.includes(hidden), `${hidden} is hidden`);
  assert.equal(await page.locator('.seat-cover').count(), 0, 'one human seat: no cover');
  await page.getByRole('button', { name: 'switch', exact: true }).click();
  await page.locator('.reveal').waitFor();
  const history = (await texts(page, '.history li button')).join(' ');
  assert.match(history, /chance: \(hide_car \d\)/);
  assert.ok(history.includes(`chance: (open_door ${opened})`), history);
  const revealed = (await texts(page, '.reveal-move')).join('\n');
  assert.match(revealed, /candidate: switch — saw \(car \d\)/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: pig\'s throws are drawn as dice, in the move list and in what a seat saw', async () => {
  // Two random seats: nothing is hidden, every throw is in the move list with its die.
  const { page, errors, context } = await open('?view=play&game=pig&players=random;random');
  await page.locator('.goals').waitFor({ state: 'visible' });
  const throws = await page.locator('.history li button').evaluateAll((bs) => bs.flatMap((b) => {
    const m = /chance: \(throw (\d)\)/.exec(b.textContent);
    return m ? [[m[1], [...b.querySelectorAll('.chance-drawn svg')].map((s) => `${s.dataset.kind} ${s.dataset.content}`)]] : [];
  }));
  assert.ok(throws.length >= 1, 'at least one throw');
  for (const [face, drawn] of throws) assert.deepEqual(drawn, [`die ${face}`]);
  await context.close();
  // A human seat sees the throw it perceived as a die.
  const human = await open('?view=play&game=pig&players=human;random');
  await human.page.locator('.role-moves button.move[data-move="roll"]').first().click();
  await human.page.locator('.seat-view .seen-percepts', { hasText: 'thrown' }).first().waitFor();
  const seen = await human.page.locator('.seat-view li').evaluateAll((lis) => lis.flatMap((li) => {
    const m = /\(thrown (\d)\)/.exec(li.textContent);
    return m ? [[m[1], [...li.querySelectorAll('.chance-drawn svg')].map((s) => s.dataset.content)]] : [];
  }));
  assert.ok(seen.length >= 1);
  for (const [face, drawn] of seen) assert.deepEqual(drawn, [face]);
  assert.deepEqual([...errors, ...human.errors], []);
  await human.context.close();
});

test('play: a game on a ring of places is drawn round a circle', async () => {
  const kif = readFileSync(join(ROOT, 'crate', 'play', 'testdata', 'ring_game.kif'), 'utf8');
  const { page, errors, context } = await openPlayWithKif(kif);
  await page.locator('.board.ring').waitFor();
  const places = await page.locator('.board.ring .cell').evaluateAll((cells) => cells.map((c) => {
    const box = c.getBoundingClientRect();
    return { cell: c.dataset.cell, x: box.x + box.width / 2, y: box.y + box.height / 2, content: c.querySelector('svg')?.dataset.content ?? '' };
  }));
  assert.deepEqual(places.map((p) => p.cell), ['p1|', 'p2|', 'p3|', 'p4|', 'p5|', 'p6|']);
  // Equally far from their centre, the first at the top, then clockwise.
  const cx = places.reduce((a, p) => a + p.x, 0) / places.length;
  const cy = places.reduce((a, p) => a + p.y, 0) / places.length;
  const radii = places.map((p) => Math.hypot(p.x - cx, p.y - cy));
  for (const r of radii) assert.ok(Math.abs(r - radii[0]) < 2, `radii ${radii}`);
  assert.ok(places[0].y < cy - radii[0] * 0.9, 'p1 at the top');
  assert.ok(places[1].x > cx, 'p2 clockwise from it');
  assert.deepEqual(places.map((p) => p.content), ['green', 'red', 'green', 'red', 'green', 'red']);
  await shot(page, 'play-ring');
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: a game on a lattice of places is drawn at its points, every neighbour equally far, and played by clicks', async () => {
  const kif = readFileSync(join(ROOT, 'crate', 'play', 'testdata', 'star_game.kif'), 'utf8');
  const { page, errors, context } = await openPlayWithKif(kif);
  await page.locator('.board.lattice').waitFor();
  const places = await page.locator('.board.lattice .cell').evaluateAll((cells) => cells.map((c) => {
    const box = c.getBoundingClientRect();
    return { cell: c.dataset.cell, x: box.x + box.width / 2, y: box.y + box.height / 2, width: box.width, content: c.querySelector('svg')?.dataset.content ?? '' };
  }));
  assert.equal(places.length, 7);
  const at = Object.fromEntries(places.map((p) => [p.cell.split('|')[0], p]));
  // The six round the centre are one step from it, and from their neighbours round the ring.
  const step = Math.hypot(at.p1.x - at.c.x, at.p1.y - at.c.y);
  assert.ok(step > at.c.width * 0.9, `places ${step}px apart, ${at.c.width}px wide`);
  for (const p of ['p2', 'p3', 'p4', 'p5', 'p6']) {
    assert.ok(Math.abs(Math.hypot(at[p].x - at.c.x, at[p].y - at.c.y) - step) < 2, `${p} one step from the centre`);
  }
  assert.ok(Math.abs(Math.hypot(at.p1.x - at.p2.x, at.p1.y - at.p2.y) - step) < 2, 'p1 and p2 neighbours');
  assert.equal(at.p4.content, 'red');
  // The peg moves by clicks: from p4 to the centre.
  await page.locator('.board.lattice .cell[data-cell="p4|"]').click();
  await page.locator('.board.lattice .cell[data-cell="c|"]').click();
  await page.waitForFunction(() => document.querySelector('.board.lattice .cell[data-cell="c|"] svg')?.dataset.content === 'red');
  await shot(page, 'play-lattice');
  // The search tree's nodes draw the same places, as holes (the exported SVG).
  await page.locator('button', { hasText: 'Search tree of this position' }).click();
  await page.waitForFunction(() => / nodes searched\./.test(document.querySelector('.tree-status')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  const canvas = page.locator('.tree-canvas').first();
  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await frame(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'SVG' }).click()]);
  const svg = readFileSync(await download.path(), 'utf8');
  const holes = svg.match(/<circle [^>]*stroke-width="0.4"/g) ?? [];
  assert.ok(holes.length >= 7 && holes.length % 7 === 0, `${holes.length} holes in the tree's node boards`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: a player spec the registry does not know is said, and the default engine plays', async () => {
  // The specs of the URL are parsed by the engine (Rust); x (human) is to move, so the message stays.
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=human;nosuch:ms=100');
  await page.waitForFunction(() => /Player not known/.test(document.querySelector('.play-status')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await page.locator('.play-status').textContent(), /nosuch:ms=100: unknown player `nosuch`/);
  assert.equal(await page.locator('select[aria-label="who plays o"]').inputValue(), 'engine');
  // The default engine plays instead: `gdlkit serve`'s default player.
  assert.equal(await page.locator('select[aria-label="engine for o"]').inputValue(), 'mcts-solver');
  assert.equal(await page.locator('select[aria-label="time per move for o"]').inputValue(), '1000');
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: the engine thinks with progress and stops', async (t) => {
  // A minute to think: Stop is clicked long before it ends, however loaded the machine.
  const { page, errors, context } = await open('?view=play&game=connectFour&players=alphabeta:ms=60000;human');
  await page.locator('.think').waitFor({ state: 'visible' });
  assert.match(await page.locator('.think-label').textContent(), /red \(alphabeta\) is thinking/);
  const started = Date.now();
  await page.locator('.think button', { hasText: 'Stop' }).click();
  await page.locator('.think').waitFor({ state: 'hidden' });
  t.diagnostic(`stopped after ${Date.now() - started} ms`);
  assert.match(await page.locator('.play-status').textContent(), /Stopped/);
  // Paused: the engine's role can be moved by hand, then the engine is asked again.
  await page.locator('.board button[data-cell="4|6"]').click();
  await page.waitForFunction(() => document.querySelectorAll('.history li').length === 2);
  await page.locator('.board [data-cell="4|1"] .drawing[data-kind="disc"]').waitFor();
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: the Why? panel gives each move\'s f_JO with relaxed plans', async () => {
  // After x (1 1) and o (2 2) in the project's tic-tac-toe.
  const { page, errors, context } = await open('?view=play&game=ticTacToe&moves=(mark 1 1),noop;noop,(mark 2 2)&players=human;human');
  await page.waitForSelector('.board [data-cell="2|2"] .drawing');
  // The list is the engine's registry (heuristics(): those marked `explain`, with their labels), f_JO first chosen.
  await page.waitForFunction(() => document.querySelectorAll('.why-panel select[aria-label="heuristic to explain with"] option').length > 0, null, { timeout: 60_000 });
  const offered = await page.locator('.why-panel select[aria-label="heuristic to explain with"] option').evaluateAll((l) => l.map((o) => [o.value, o.textContent]));
  const expected = registryHeuristics().filter((x) => x.explain).map((x) => [x.name, x.label]);
  assert.ok(expected.length >= 4, JSON.stringify(expected));
  assert.deepEqual(offered, expected);
  assert.equal(await page.locator('.why-panel select[aria-label="heuristic to explain with"]').inputValue(), 'fjo');
  await page.locator('.why-panel button', { hasText: 'Why?' }).click();
  await page.waitForSelector('.why-table tbody tr', { timeout: 60_000 });
  const rows = await page.locator('.why-table tbody tr').evaluateAll((l) => l.map((tr) => [tr.dataset.move, Number(tr.dataset.value)]));
  assert.equal(rows.length, 7, JSON.stringify(rows));
  // The same numbers as the native `gdlkit explain` (crate/gdlkit/tests/integration/planning.rs pins the thesis's).
  const byMove = Object.fromEntries(rows);
  assert.ok(Object.values(byMove).every(Number.isFinite));
  assert.ok(byMove['(mark 1 2)'] > byMove['(mark 2 3)'], 'extending x\'s row beats a square off x\'s lines');
  assert.match(await page.locator('.why-table').textContent(), /goal 100: h_FF \d/);
  assert.match(await page.locator('.why-summary').textContent(), /x, fjo/);
  // Another heuristic by name: distances, the best is the smallest.
  await page.locator('.why-panel select[aria-label="heuristic to explain with"]').selectOption('hff');
  await page.locator('.why-panel button', { hasText: 'Why?' }).click();
  await page.waitForFunction(() => /hff/.test(document.querySelector('.why-summary')?.textContent ?? ''), null, { timeout: 60_000 });
  // A distance by the registry's flag: the marked best row has the smallest value.
  assert.equal(registryHeuristics().find((x) => x.name === 'hff')?.distance, true);
  const hff = await page.locator('.why-table tbody tr').evaluateAll((l) => l.map((tr) => [Number(tr.dataset.value), tr.classList.contains('why-best')]));
  const finite = hff.map(([v]) => v).filter(Number.isFinite);
  assert.ok(finite.length > 0 && hff.some(([, b]) => b), JSON.stringify(hff));
  for (const [v, b] of hff) if (b) assert.equal(v, Math.min(...finite), JSON.stringify(hff));
  await shot(page, 'view-play-why');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Each move's `[outcome, moves to the end]` as the marks on the board give them (every cell a move names). */
async function solvedMarks(page) {
  const entries = await page.locator('.board [data-solved-moves]').evaluateAll((cells) => cells.flatMap((c) => JSON.parse(c.dataset.solvedMoves)));
  return Object.fromEntries(entries.map(([move, outcome, n]) => [move, [outcome, n]]));
}

test('play: Perfect play marks every move with its solved value, as solve() gives it; the Why? panel and the tree show it', async () => {
  // The reference: the npm package's solver in Node, asked for the same two positions.
  const kif = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
  // x (1 1), o (2 2), x (3 3), o (1 3): o threatens (3 1); every other move of x loses, (3 1) wins (two threats).
  const moves = [['(mark 1 1)', 'noop'], ['noop', '(mark 2 2)'], ['(mark 3 3)', 'noop'], ['noop', '(mark 1 3)']];
  const game = new Game(kif);
  const fluentsAfter = (joints) => game.fluents(joints.reduce((s, j) => game.next(s, j), game.initialState()));
  const job = new SolveJob(kif);
  while (!job.step().done) {
    // the whole game: 5,478 states
  }
  const expected = (p) => Object.fromEntries(p.moves.map((m) => [m.move, [m.outcome, m.value.movesToEnd]]));
  const start = job.position(fluentsAfter([]));
  const late = job.position(fluentsAfter(moves));
  job.free();
  game.free();
  assert.equal(start.role, 0);
  assert.equal(expected(start)['(mark 2 2)'][0], 'draw');
  const lateExpected = expected(late);
  assert.equal(lateExpected['(mark 3 1)'][0], 'win');
  // The move the page's engine plays there with Perfect play on (Rust's Solution::solved_move).
  assert.equal(late.play, '(mark 3 1)');
  assert.equal(expected(start)[start.play]?.[0], 'draw');
  assert.equal(Object.values(lateExpected).filter(([o]) => o === 'loss').length, 4, JSON.stringify(lateExpected));

  const text = moves.map((j) => j.join(',')).join(';');
  const { page, errors, context } = await open(`?view=play&game=ticTacToe&moves=${text}&players=human;human`);
  await page.waitForSelector('.board [data-cell="1|3"] .drawing');
  await page.locator('.perfect-switch').check();
  await page.waitForFunction(() => document.querySelectorAll('.board [data-solved]').length === 5, null, { timeout: 60_000 });
  assert.match(await page.locator('.perfect-status').textContent(), /Solved \(zero-sum\): 5,478 states; from the start x 50, o 50/);
  assert.deepEqual(await solvedMarks(page), lateExpected);
  assert.equal(await page.locator('.board [data-solved="loss"]').count(), 4);
  assert.equal(await page.locator('.board [data-cell="3|1"]').getAttribute('data-solved'), 'win');
  await shot(page, 'view-play-perfect');
  // The Why? panel's solved column: the same outcomes.
  await page.locator('.why-panel button', { hasText: 'Why?' }).click();
  await page.waitForSelector('.why-table tbody tr', { timeout: 60_000 });
  const column = await page.locator('.why-table tbody td.why-solved').evaluateAll((l) => l.map((td) => [td.closest('tr').dataset.move, td.dataset.solved, td.hidden]));
  assert.equal(column.length, 5);
  for (const [move, outcome, hidden] of column) {
    assert.equal(outcome, lateExpected[move][0], move);
    assert.equal(hidden, false);
  }
  // The start: the centre is a draw for x, as every first move.
  await page.locator('.history button', { hasText: 'start' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.board [data-solved]').length === 9, null, { timeout: 60_000 });
  assert.deepEqual(await solvedMarks(page), expected(start));
  assert.equal(await page.locator('.board [data-cell="2|2"]').getAttribute('data-solved'), 'draw');
  // The search tree of the late position: the solved value beside the search's at every node (x wins: 100).
  await page.locator('.history button', { hasText: '4.' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.board [data-solved]').length === 5, null, { timeout: 60_000 });
  await page.locator('button', { hasText: 'Search tree of this position' }).click();
  await page.waitForFunction(() => /nodes searched/.test(document.querySelector('.tree-status')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  await page.waitForSelector('.tree-outline li[data-solved]', { state: 'attached' });
  assert.equal(await page.locator('.tree-outline > ul > li').getAttribute('data-solved'), '100');
  const children = await page.locator('.tree-outline > ul > li > ul > li').evaluateAll((l) => l.map((li) => [li.dataset.label, li.dataset.solved]));
  assert.equal(children.length, 5, JSON.stringify(children));
  for (const [label, solved] of children) assert.equal(solved, lateExpected[label][0] === 'win' ? '100' : '0', label);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: Solve with BDDs counts tic-tac-toe\'s states and finds its value as the explicit solver does; Cancel ends a long solve', async () => {
  const kif = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
  // The references: the explicit solver and the same symbolic solve, in Node.
  const explicit = solve(kif);
  const bdd = solveSymbolic(kif);
  assert.equal(bdd.stats.states, explicit.stats.states);
  assert.equal(bdd.stats.layers.length, 10, JSON.stringify(bdd.stats.layers));
  const start = explicit.initial.goals;
  assert.deepEqual(bdd.initial, start);
  const { page, errors, context } = await open('?view=play&game=ticTacToe');
  await page.locator('button.solve-symbolic').click();
  await page.waitForFunction(() => /^BDDs \(/.test(document.querySelector('.symbolic-status')?.textContent ?? ''), null, { timeout: 120_000 });
  const line = await page.locator('.symbolic-status').textContent();
  assert.match(line, new RegExp(`${explicit.stats.states.toLocaleString('en')} states`), line);
  assert.match(line, new RegExp(`from the start x ${start[0]}, o ${start[1]}`), line);
  await shot(page, 'play-symbolic');
  // clobber's reachable states take minutes (millions a layer): progress by layer, then Cancel.
  const c4 = await open('?view=play&game=clobber', { context });
  await c4.page.locator('button.solve-symbolic').click();
  await c4.page.waitForFunction(() => /layer \d+/.test(document.querySelector('.symbolic-status')?.textContent ?? ''), null, { timeout: 120_000 });
  await c4.page.locator('.symbolic-solve button', { hasText: 'Cancel' }).click();
  await c4.page.waitForFunction(() => document.querySelector('.symbolic-status')?.textContent === 'BDDs: cancelled.');
  // The page goes on: a move is still played (from the list of legal moves).
  await c4.page.locator('details.moves-details summary').click();
  await c4.page.locator('.move-buttons button').first().click();
  await c4.page.waitForFunction(() => /Step 2/.test(document.body.textContent));
  assert.deepEqual(errors, []);
  assert.deepEqual(c4.errors, []);
  await context.close();
});

test('play: a solution file loads into Perfect play and marks the moves; one of another game is refused', async () => {
  const nim = readFileSync(join(ROOT, 'games', 'nim.kif'), 'utf8');
  const job = new SolveJob(nim);
  while (!job.step().done) {
    // nim: 232 states
  }
  const file = job.solutionFile();
  job.free();
  const ttt = new SolveJob(readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8'));
  while (!ttt.step().done) {
    // 5,478 states
  }
  const other = ttt.solutionFile();
  ttt.free();
  const { page, errors, context } = await open('?view=play&game=nim&players=human;human');
  await page.waitForSelector('.load-solution');
  await page.locator('.solution-file').setInputFiles({ name: 'ticTacToe.solution', mimeType: 'text/plain', buffer: Buffer.from(other) });
  await page.waitForFunction(() => /Cannot load ticTacToe\.solution/.test(document.querySelector('.perfect-status')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await page.locator('.perfect-status').textContent(), /roles/);
  assert.equal(await page.locator('.perfect-switch').isChecked(), false);
  await page.locator('.solution-file').setInputFiles({ name: 'nim.solution', mimeType: 'text/plain', buffer: Buffer.from(file) });
  await page.waitForFunction(() => document.querySelectorAll('[data-move][data-solved]').length > 0, null, { timeout: 60_000 });
  assert.match(await page.locator('.perfect-status').textContent(), /nim\.solution: Solved \(zero-sum\): 232 states/);
  assert.equal(await page.locator('.perfect-switch').isChecked(), true);
  // 3 xor 4 xor 5 = 2: the only winning move takes 2 from heap a.
  const wins = await page.locator('[data-move][data-solved="win"]').evaluateAll((l) => l.map((e) => e.dataset.move));
  assert.deepEqual(wins, ['(take a 2)']);
  // A partial solution (100 of the 232 states) marks the moves too: `?`
  // where nothing is proved, and never a value the whole solution denies.
  const part = new SolveJob(nim, { maxStates: 100 });
  while (!part.step().done) {
    // stops at the state limit
  }
  const partial = part.solutionFile();
  part.free();
  await page.locator('.solution-file').setInputFiles({ name: 'nim-part.solution', mimeType: 'text/plain', buffer: Buffer.from(partial) });
  await page.waitForFunction(() => /nim-part\.solution: Partly solved/.test(document.querySelector('.perfect-status')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll('[data-move][data-solved]').length > 0, null, { timeout: 60_000 });
  const partMarks = await page.locator('[data-move][data-solved]').evaluateAll((l) => l.map((e) => [e.dataset.move, e.dataset.solved]));
  assert.ok(partMarks.some(([, o]) => o === 'unknown'), JSON.stringify(partMarks));
  for (const [move, outcome] of partMarks) {
    assert.ok(outcome === 'unknown' || outcome === (move === '(take a 2)' ? 'win' : 'loss'), `${move}: ${outcome}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: Perfect play on a game with simultaneous moves solves it, says the start has no value, and marks nothing', async () => {
  const { page, errors, context } = await open('?view=play&game=rockPaperScissors&players=human;human');
  await page.waitForSelector('.human-moves button.move');
  await page.locator('.perfect-switch').check();
  await page.waitForFunction(() => /^Solved/.test(document.querySelector('.perfect-status')?.textContent ?? ''), null, { timeout: 60_000 });
  const line = await page.locator('.perfect-status').textContent();
  assert.match(line, /from the start no value/);
  assert.match(line, /both roles choose \(\d+ states\)/);
  assert.equal(await page.locator('.perfect-switch').isChecked(), true);
  assert.equal(await page.locator('[data-solved]').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('tree: chance nodes take the mean of their children (expectimax), MIN below them, nothing pruned under them', async () => {
  const { page, errors, context } = await open(`?view=tree&tree=${encodeURIComponent('((chance (3 12) (8 2)) (chance (4 6) (14 5)))')}`);
  await page.locator('.step-counter[data-total]').waitFor();
  await page.keyboard.press('End');
  // MAX takes the second chance node: the mean of MIN's 4 and 5.
  await page.waitForSelector('.root-value[data-value="4.5"]');
  // The outline follows at the next frame's drawing (a loaded machine reads between).
  await page.waitForSelector('.tree-outline li[data-kind="max"][data-value="4.5"]', { state: 'attached' });
  const outline = await page.locator('.tree-outline li').evaluateAll((l) => l.map((li) => [li.dataset.kind, li.dataset.value, li.dataset.status]));
  const of = (kind) => outline.filter(([k]) => k === kind).map(([, v]) => v);
  assert.deepEqual(of('chance'), ['2.5', '4.5']);
  assert.deepEqual(of('min'), ['3', '2', '4', '5']);
  assert.deepEqual(of('max'), ['4.5']);
  assert.equal(outline.filter(([, , st]) => st === 'pruned').length, 0, 'nothing is cut under a chance node');
  assert.match(await page.locator('.window-line .best').textContent(), /best move 2/);
  assert.match(await page.locator('.legend').textContent(), /○ chance \(the mean of its children/);
  // The step that returns a chance node says it is the mean.
  await page.keyboard.press('Home');
  let said = '';
  for (let step = 1; step < 60 && !/mean/.test(said); step++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector(`.step-counter[data-step="${step}"]`);
    said = await page.locator('.event-line').textContent();
  }
  assert.match(said, /returns 2\.5, the mean of its 2 children/);
  await shot(page, 'view-tree-chance');
  assert.deepEqual(errors, []);
  await context.close();
});

test('tree: Monty Hall\'s tree joins what the candidate cannot tell apart (information sets) under chance nodes', async () => {
  const { page, errors, context } = await open('?view=tree&source=initial&game=montyHall&algo=minimax&depth=3&role=candidate&step=end');
  await page.waitForSelector('.root-value', { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelectorAll('.tree-outline li[data-info-set]').length > 0);
  const outline = await page.locator('.tree-outline li').evaluateAll((l) => l.map((li) => [li.dataset.kind, li.dataset.infoSet ?? null]));
  assert.ok(outline.filter(([k]) => k === 'chance').length >= 3, 'chance nodes under the first choice');
  const sets = new Map();
  for (const [kind, set] of outline) {
    if (set === null) continue;
    assert.equal(kind, 'max');
    sets.set(set, (sets.get(set) ?? 0) + 1);
  }
  // One set per (chosen door, opened door), each of the two places of the car.
  assert.deepEqual([...sets.values()], [2, 2, 2, 2, 2, 2]);
  assert.match(await page.locator('.legend').textContent(), /information set/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'SVG' }).click()]);
  assert.equal((readFileSync(await download.path(), 'utf8').match(/class="info-set"/g) ?? []).length, 6);
  await shot(page, 'view-tree-information-sets');
  assert.deepEqual(errors, []);
  await context.close();
});

test('tree: stepping the lecture tree prunes 4 and 6, the root is 3', async () => {
  const { page, errors, context } = await open('?view=tree&tree=((3 12 8) (2 4 6) (14 5 2))');
  await page.waitForSelector('.step-counter[data-total="37"]');
  const status = (sel) => page.locator(`.tree-outline li[data-status="${sel}"]`).evaluateAll((l) => l.map((li) => li.dataset.value));
  assert.deepEqual(await status('pruned'), []);
  // Step with the keyboard until the cut-off in the second MIN node.
  let step = 0;
  while ((await status('pruned')).length === 0) {
    await page.keyboard.press('ArrowRight');
    step += 1;
    await page.waitForSelector(`.step-counter[data-step="${step}"]`);
    await frame(page);
    assert.ok(step < 37, 'a cut-off happens');
  }
  assert.equal(step, 20, 'the cut-off is event 19 of the trace (step 20)');
  assert.deepEqual(await status('pruned'), ['4', '6'], 'the leaves 4 and 6 are pruned');
  assert.match(await page.locator('.event-line').textContent(), /Cut-off/);
  assert.match(await page.locator('.window-line').textContent(), /\(α, β\) = \(3, ∞\)|\(α, β\) = \(3, 2\)/);
  await shot(page, 'view-tree-cutoff');
  await page.keyboard.press('End');
  await page.waitForSelector('.root-value[data-value="3"]');
  await frame(page);
  assert.equal(await page.locator('.step-counter').getAttribute('data-step'), '37');
  assert.equal(await page.locator('.pane-counter').getAttribute('data-visited'), '11');
  assert.equal(await page.locator('.pane-counter').getAttribute('data-pruned'), '2');
  assert.match(await page.locator('.window-line .best').textContent(), /best move 1/);
  await shot(page, 'view-tree');
  // Export: the SVG holds the tree at this step.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'SVG' }).click()]);
  const svg = readFileSync(await download.path(), 'utf8');
  assert.match(svg, /^<svg /);
  assert.match(svg, /✂ ≤2/);
  assert.ok(/>12</.test(svg), 'the leaf 12 is drawn');
  const [png] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'PNG' }).click()]);
  const bytes = readFileSync(await png.path());
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
  assert.ok(bytes.readUInt32BE(16) > 200 && bytes.readUInt32BE(20) > 100, 'a PNG of the whole tree');
  // Collapse the first MIN node with the keyboard (↓ selects the root, ↓ its first child, Enter): its leaves are hidden.
  await page.locator('.tree-canvas').first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const [collapsed] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'SVG' }).click()]);
  assert.ok(!/>12</.test(readFileSync(await collapsed.path(), 'utf8')), 'collapsed: the leaf 12 is hidden');
  await page.locator('.tree-canvas').first().focus();
  await page.keyboard.press('Enter');
  const [expanded] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'SVG' }).click()]);
  assert.ok(/>12</.test(readFileSync(await expanded.path(), 'utf8')), 'expanded again');
  // Zoom (+) and pan (Shift+→) redraw the canvas.
  const pixels = async () => { await frame(page); return page.locator('.tree-canvas').first().evaluate((c) => c.toDataURL()); };
  await page.locator('.tree-canvas').first().focus();
  const before = await pixels();
  await page.keyboard.press('+');
  const zoomed = await pixels();
  assert.notEqual(zoomed, before, 'zoomed');
  await page.keyboard.press('Shift+ArrowRight');
  assert.notEqual(await pixels(), zoomed, 'panned');
  // Step back from the end: the root has no final value any more.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('.root-value').count(), 0);
  await page.keyboard.press('Home');
  assert.equal(await page.locator('.step-counter').getAttribute('data-step'), '0');
  // Space plays and pauses.
  await page.locator('.tree-canvas').first().focus();
  await page.keyboard.press(' ');
  await page.waitForFunction(() => Number(document.querySelector('.step-counter').dataset.step) >= 2);
  await page.keyboard.press(' ');
  const paused = await page.locator('.step-counter').getAttribute('data-step');
  await page.waitForTimeout(400);
  assert.equal(await page.locator('.step-counter').getAttribute('data-step'), paused, 'paused');
  await page.keyboard.press('Home');
  // Two orderings side by side: best-first prunes more.
  await page.locator('.tree-form input[type="checkbox"]').check();
  await page.waitForFunction(() => document.querySelectorAll('.tree-pane').length === 2);
  // Keys typed in the form's fields are the fields': step from the tree.
  await page.locator('.tree-canvas').first().focus();
  await page.keyboard.press('End');
  // The counters are drawn on the next animation frame: wait for the end's.
  await page.waitForFunction(() => {
    const step = document.querySelector('.step-counter').dataset;
    const panes = [...document.querySelectorAll('.pane-counter')];
    return step.step === step.total && panes.length === 2 && panes.every((c) => Number(c.dataset.pruned) > 0);
  });
  const pruned = await page.locator('.pane-counter').evaluateAll((l) => l.map((c) => Number(c.dataset.pruned)));
  assert.equal(pruned.length, 2);
  assert.ok(pruned[1] > pruned[0], `best-first ordering prunes more: ${pruned}`);
  await shot(page, 'view-tree-compare');
  assert.deepEqual(errors, []);
  await context.close();
});

test('tree: a game position in every move ordering, and 10,000+ nodes (the frame time is printed)', async (t) => {
  const { page, errors, context } = await open('?view=tree&tree=((1 2) (3 4))');
  await page.waitForSelector('.step-counter[data-total]');
  await page.locator('label.radio', { hasText: 'initial state' }).click();
  await page.waitForFunction(() => document.querySelector('.tree-status').textContent === '36 nodes searched.', null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  await page.waitForSelector('.root-value');
  assert.match(await page.locator('.window-line .best').textContent(), /best move \(mark \d \d\)/);
  await shot(page, 'view-tree-game');
  // Move orderings on a real game: worst first vs best first, side by side.
  await page.locator('.tree-form select[aria-label="move ordering"]').selectOption('worst');
  await page.locator('.tree-form input[type="checkbox"]').check();
  await page.waitForFunction(() => document.querySelectorAll('.tree-pane').length === 2 && /nodes searched/.test(document.querySelector('.tree-status').textContent), null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  const values = await page.locator('.tree-outline > ul > li').evaluateAll((l) => l.map((li) => li.dataset.value));
  assert.equal(values.length, 2);
  assert.equal(values[0], values[1], 'the ordering changes the pruning, not the value');
  const visited = await page.locator('.pane-counter').evaluateAll((l) => l.map((c) => Number(c.dataset.visited)));
  assert.ok(visited[1] <= visited[0], `best first visits no more nodes than worst first: ${visited}`);
  await shot(page, 'view-tree-game-compare');
  await page.locator('.tree-form input[type="checkbox"]').uncheck();
  await page.locator('.tree-form select[aria-label="move ordering"]').selectOption('given');
  // A large abstract tree (11,111 nodes), searched by minimax: every node visited.
  await page.locator('label.radio', { hasText: 'abstract tree' }).click();
  await page.locator('.tree-form select[aria-label="algorithm"]').selectOption('minimax');
  // The algorithms are the engine registry's players that draw a tree (selectOption waited for the list).
  const algorithms = await page.locator('.tree-form select[aria-label="algorithm"] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(algorithms, [['minimax', 'minimax'], ['alphabeta', 'alpha-beta']]);
  await page.locator('.tree-form select[aria-label="example trees"]').selectOption('huge');
  await page.waitForFunction(() => Number(document.querySelector('.pane-counter')?.dataset.nodes) > 10000, null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  await page.waitForFunction(() => Number(document.querySelector('.pane-counter')?.dataset.visited) > 10000);
  const frame = await page.evaluate(async () => {
    const t0 = performance.now();
    for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
    return (performance.now() - t0) / 10;
  });
  t.diagnostic(`a frame takes ${frame.toFixed(0)} ms`);
  await shot(page, 'view-tree-large');
  assert.deepEqual(errors, []);
  await context.close();
});

test('tree: f_JO at the cut-off leaves of a depth-1 tic-tac-toe tree', async () => {
  // The settings from the URL, as a lecture's link or embed gives them.
  const { page, errors, context } = await open('?view=tree&game=ticTacToe&source=initial&depth=1&heuristic=fjo&step=end');
  await page.waitForFunction(() => document.querySelector('.tree-status')?.textContent === '10 nodes searched.', null, { timeout: 60_000 });
  assert.equal(await page.locator('.tree-form select[aria-label="evaluation at the cut-off leaves"]').inputValue(), 'fjo');
  // The evaluations offered are the engine's list (inverse-mobility and hadd were never in a page copy).
  const evals = await page.locator('.tree-form select[aria-label="evaluation at the cut-off leaves"] option').evaluateAll((os) => os.map((o) => o.value));
  for (const name of ['fuzzy', 'fjo', 'hff', 'hadd', 'inverse-mobility', 'none']) assert.ok(evals.includes(name), `${name} in ${evals}`);
  // The roles offered to maximise come from the engine's reading of the rules.
  const roles = await page.locator('.tree-form select[aria-label="role to maximise"] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(roles, [['', 'x (first role)'], ['o', 'o']]);
  await page.waitForSelector('.root-value');
  const leaves = await page.locator('.tree-outline li li').evaluateAll((l) => l.map((li) => li.dataset.value));
  assert.equal(leaves.length, 9, JSON.stringify(leaves));
  // Every first move has the same f_JO (the thesis's table: all equal), scaled into [1, 99].
  assert.equal(new Set(leaves).size, 1, JSON.stringify(leaves));
  assert.ok(Number(leaves[0]) >= 1 && Number(leaves[0]) <= 99);
  await shot(page, 'view-tree-fjo');
  assert.deepEqual(errors, []);
  await context.close();
});

test('embed: ?embed=1 shows only the view, restored from the URL', async () => {
  const tree = await open('?embed=1&view=tree&tree=((3 12 8) (2 4 6) (14 5 2))&step=end', { viewport: { width: 800, height: 500 } });
  await tree.page.waitForSelector('.root-value[data-value="3"]');
  assert.equal(await tree.page.locator('.app-header').isVisible(), false, 'no chrome');
  assert.equal(await tree.page.locator('.tree-form').count(), 0, 'no settings form in an embed');
  await shot(tree.page, 'view-embed-tree');
  assert.deepEqual(tree.errors, []);
  await tree.context.close();

  const play = await open('?embed=1&view=play&game=ticTacToe&moves=(mark 2 2),noop&players=human;human', { viewport: { width: 700, height: 450 } });
  await play.page.waitForSelector('.board [data-cell="2|2"] .drawing');
  assert.equal(await play.page.locator('.board [data-cell="2|2"] .drawing').getAttribute('data-content'), 'x');
  assert.equal(await play.page.locator('.history li').count(), 2);
  await shot(play.page, 'view-embed-play');
  // An embed never touches the user's autosave.
  assert.equal(await play.page.evaluate(() => localStorage.getItem('gdlkit.site.v1')), null);
  await play.context.close();

  const editor = await open('?embed=1&view=editor&game=nim', { viewport: { width: 700, height: 450 } });
  await editor.page.waitForSelector('.lint-summary.clean');
  assert.equal(await editor.page.locator('.app-header').isVisible(), false, 'no chrome');
  assert.match(await editor.page.locator('.cm-content').textContent(), /\(role /);
  assert.deepEqual(editor.errors, []);
  await editor.context.close();
});

test('deck: <gdl-tree> and <gdl-play> from one script tag', async () => {
  const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 800 } });
  ctx.setDefaultTimeout(60_000);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(new URL('deck.html#2', url).href);
  const tree = page.locator('section.present gdl-tree');
  await tree.locator('.step-counter[data-total="37"]').waitFor({ timeout: 60_000 });
  await tree.locator('.tree-view').focus();
  await page.keyboard.press('End');
  await tree.locator('.root-value[data-value="3"]').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'deck-tree.png') });
  await page.keyboard.press('Escape');
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  const play = page.locator('section.present gdl-play');
  await play.locator('.board button.cell').first().waitFor({ timeout: 60_000 });
  assert.equal(await play.locator('.board button.cell').count(), 9);
  await page.screenshot({ path: join(ARTIFACTS, 'deck-play.png') });
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('autosave: the work is restored after a reload', async () => {
  const { page, errors, context } = await open('?view=editor&game=ticTacToe');
  await page.waitForSelector('.lint-summary.clean');
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; my own note: keep me');
  await page.waitForTimeout(100);
  await page.goto(new URL('./', url).href);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.evaluate(() => document.body.dataset.view), 'editor', 'the view is restored');
  await page.waitForSelector('.cm-content');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('gdlkit.site.v1')).text);
  assert.match(saved, /my own note: keep me/);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.waitForFunction(() => /my own note: keep me/.test(document.querySelector('.cm-content').textContent));
  assert.equal(await page.locator('#picker').inputValue(), '', 'edited text is no longer the library game');
  // Share puts the (compressed) text into the link; the link opens it elsewhere.
  await page.locator('#share').click();
  await page.waitForFunction(() => location.hash.includes('kif='));
  const link = await page.evaluate(() => location.href);
  const other = await open(link);
  await other.page.waitForSelector('.cm-content');
  await other.page.waitForFunction(() => /my own note: keep me/.test(localStorage.getItem('gdlkit.site.v1') ?? ''), null, { timeout: 60_000 });
  await other.context.close();
  // Play a move, reload: the move list is restored too.
  await page.locator('#tab-play').click();
  await page.waitForSelector('.board button.cell.target');
  await page.locator('.board button.cell.target').first().click();
  await page.waitForFunction(() => document.querySelectorAll('.history li').length >= 2);
  const moves = await page.locator('.history li').count();
  await page.reload();
  await page.waitForSelector('body[data-play-ready="true"]');
  await page.waitForFunction((n) => document.querySelectorAll('.history li').length >= n, Math.min(moves, 2));
  assert.deepEqual(errors, []);
  await context.close();
});

test('semantic check: a counterexample opens in the play view', async () => {
  const { page, errors, context } = await open('?view=editor&game=buttonsAndLights');
  await page.waitForSelector('.lint-summary:not(:empty)');
  await page.locator('button', { hasText: 'Check semantics' }).click();
  const terminates = page.locator('.properties li[data-property="terminates"]');
  await terminates.waitFor({ timeout: 60_000 });
  assert.match(await terminates.getAttribute('class'), /\bno\b/, 'Buttons and Lights does not terminate');
  await shot(page, 'view-editor-analysis');
  await terminates.locator('button').click();
  await page.waitForSelector('body[data-view="play"]');
  await page.waitForFunction(() => document.querySelectorAll('.history li').length >= 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('semantic check: progress, and Cancel stops it', async (t) => {
  const { page, errors, context } = await open('?view=editor&game=connectFour');
  await page.waitForSelector('.lint-summary.clean');
  await page.locator('button', { hasText: 'Check semantics' }).click();
  const label = page.locator('.analysis .row .muted');
  // Progress reports the states explored so far.
  await page.waitForFunction(() => /\d+ states/.test(document.querySelector('.analysis .row .muted')?.textContent ?? ''), null, { timeout: 60_000 });
  const started = Date.now();
  await page.locator('.analysis button', { hasText: 'Cancel' }).click();
  await page.waitForFunction(() => document.querySelector('.analysis .row .muted').textContent === 'Cancelled.');
  t.diagnostic(`cancelled after ${Date.now() - started} ms`);
  assert.equal(await label.textContent(), 'Cancelled.');
  // A soft cancel keeps what was found so far.
  assert.match(await page.locator('.analysis-results p').first().textContent(), /^Stopped early\. So far: .*\d+ states/);
  assert.equal(await page.locator('button', { hasText: 'Check semantics' }).isEnabled(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('accessibility: every visible control has a name, in each view', async () => {
  const { page, errors, context } = await open('?view=editor&game=connectFour&players=human;human');
  const unnamed = () => page.evaluate(() => {
    const name = (el) => (el.getAttribute('aria-label') || el.getAttribute('title') || el.labels?.[0]?.textContent
      || document.getElementById(el.getAttribute('aria-labelledby') ?? '')?.textContent
      || (['BUTTON', 'A', 'SUMMARY'].includes(el.tagName) ? el.textContent : '') || '').trim();
    return [...document.querySelectorAll('button, a[href], input, select, textarea, [role="button"], [tabindex="0"]')]
      .filter((el) => el.offsetParent !== null && !el.classList.contains('cm-content') && !name(el))
      .map((el) => el.outerHTML.slice(0, 100));
  });
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  await page.waitForSelector('.lint-summary.clean');
  assert.deepEqual(await unnamed(), []);
  await page.locator('#tab-play').click();
  await page.waitForSelector('.board button.cell');
  assert.ok((await page.locator('.board button.cell').count()) === 42, 'a 7x6 board');
  assert.deepEqual(await unnamed(), []);
  // Board cells are named by their coordinates and contents.
  assert.match(await page.locator('.board button.cell').first().getAttribute('aria-label'), /^cell 1 6: empty/);
  await page.locator('#tab-tree').click();
  await page.waitForSelector('.step-counter[data-total]');
  assert.deepEqual(await unnamed(), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('game symbols are text, never HTML', async () => {
  const kif = '; html test\n(role <b>bold</b>)\n(init (cell 1 1 <i>x</i>))\n(init (cell 1 2 b))\n(init (cell 2 1 b))\n(init (cell 2 2 b))\n'
    + '(<= (legal <b>bold</b> (<img>go 1 1)) (true (cell 1 2 b)))\n(<= (next (cell 1 2 done)) (does <b>bold</b> (<img>go 1 1)))\n'
    + '(<= terminal (true (cell 1 2 done)))\n(goal <b>bold</b> 100)\n';
  const { page, errors, context } = await openPlayWithKif(kif);
  await page.waitForSelector('body[data-play-ready="true"]');
  await page.waitForSelector('.role-row');
  assert.equal(await page.locator('.role-row .role-name').first().textContent(), '<b>bold</b>');
  assert.equal(await page.locator('main b, main i, main img').count(), 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: a board with 3 coordinates is drawn as one grid per layer, its cells split in Rust, and clicked to move', async () => {
  // A 2×2×2 cube: (cell x y z content); the structure finds 3 coordinates.
  const cells = [1, 2].flatMap((x) => [1, 2].flatMap((y) => ['top', 'bottom'].map((z) => `(init (cell ${x} ${y} ${z} b))`)));
  const kif = `; cube\n(role p)\n${cells.join('\n')}\n(init (step 0))\n`
    + '(<= (legal p (mark ?x ?y ?z)) (true (cell ?x ?y ?z b)))\n(<= (next (cell ?x ?y ?z x)) (does p (mark ?x ?y ?z)))\n'
    + '(<= (next (cell ?x ?y ?z ?c)) (true (cell ?x ?y ?z ?c)) (not (does p (mark ?x ?y ?z))))\n'
    + '(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))\n(succ 0 1) (succ 1 2) (succ 2 3)\n(<= terminal (true (step 3)))\n(goal p 100)\n';
  const { page, errors, context } = await openPlayWithKif(kif);
  await page.waitForSelector('body[data-play-ready="true"]');
  await page.waitForSelector('.board-layers .board-layer');
  const layers = await page.locator('.board-layer').evaluateAll((l) => l.map((f) => [f.dataset.layer, f.querySelectorAll('.cell').length]));
  assert.deepEqual(layers.map(([, n]) => n), [4, 4], `two 2×2 layers: ${JSON.stringify(layers)}`);
  assert.deepEqual(layers.map(([z]) => z).sort(), ['bottom', 'top']);
  // The step counter is not on the board: it is listed beside it.
  assert.match(await page.locator('.fluents-details').textContent(), /\(step 0\)/);
  // Every blank cell of both layers is a target: clicks play moves on a
  // layered board too (the cells a move names come from Rust, moveCells,
  // with the layer). Clicking (2 1 top) puts an x in the top layer only,
  // at column 2, row 1.
  await page.waitForFunction(() => document.querySelectorAll('.board-layer button.cell.target').length === 8);
  await page.locator('.board-layer[data-layer="top"] [data-cell="2|1|top"]').click();
  await page.waitForSelector('.board-layer[data-layer="top"] [data-cell="2|1|top"] .drawing');
  assert.equal(await page.locator('.board-layer[data-layer="top"] [data-cell="2|1|top"] .drawing').getAttribute('data-content'), 'x');
  assert.equal(await page.locator('.board-layer[data-layer="bottom"] .drawing').count(), 0);
  assert.equal(await page.locator('.board-layer .drawing').count(), 1);
  await page.waitForFunction(() => document.querySelectorAll('.board-layer button.cell.target').length === 7);
  assert.equal(await page.locator('.board-layer[data-layer="top"] [data-cell="2|1|top"].target').count(), 0, 'a marked cell is no target');
  await page.locator('.board-layer[data-layer="bottom"] [data-cell="1|2|bottom"]').click();
  await page.waitForSelector('.board-layer[data-layer="bottom"] [data-cell="1|2|bottom"] .drawing');
  assert.equal(await page.locator('.board-layer[data-layer="top"] [data-cell="1|2|top"] .drawing').count(), 0, 'the other layer is untouched');
  assert.equal(await page.locator('.board-layer .drawing').count(), 2);
  assert.match((await page.locator('.history li').allTextContents()).join('\n'), /\(mark 1 2 bottom\)/);
  await shot(page, 'play-cube-layers');
  assert.deepEqual(errors, []);
  await context.close();
});

/** Every [move, value] the board shows (each heat cell's `data-heat`), by move. */
const boardValues = (page) => page.locator('.board .cell.heat').evaluateAll((cells) => {
  const out = {};
  for (const c of cells) for (const [move, value] of JSON.parse(c.dataset.heat)) out[move] = value;
  return out;
});

test('play: the Why? values as a heat map on the board equal explain\'s, the plan numbered, best and runner-up outlined', async () => {
  const moves = [['(mark 1 1)', 'noop'], ['noop', '(mark 2 2)']];
  const { page, errors, context } = await open('?view=play&game=ticTacToe&moves=(mark 1 1),noop;noop,(mark 2 2)&players=human;human');
  await page.waitForSelector('.board [data-cell="2|2"] .drawing');
  await page.waitForFunction(() => document.querySelectorAll('.why-panel select[aria-label="heuristic to explain with"] option').length > 0, null, { timeout: 60_000 });
  await page.locator('.why-panel button', { hasText: 'Why?' }).click();
  await page.waitForSelector('.board .cell.heat', { timeout: 60_000 });
  // The oracle: the same worker API the page's engine worker runs (`explain`, js/worker-core.js).
  const worker = new GdlWorker();
  const kif = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
  try {
    const e = await worker.explain(kif, { moves, heuristic: 'fjo', costs: 'default' });
    const shown = await boardValues(page);
    assert.equal(Object.keys(shown).length, 7, JSON.stringify(shown));
    assert.deepEqual(shown, Object.fromEntries(e.moves.map((m) => [m.move, m.value])));
    // Each value sits on the cell its move marks (cells from Rust), and says so on hover.
    for (const m of e.moves) {
      const cell = page.locator(`.board [data-cell="${m.cells[0].join('|')}"]`);
      assert.match(await cell.getAttribute('title'), new RegExp(`${m.move.replace(/[()]/g, '\\$&')}: `));
    }
    // The best move and the runner-up are outlined where they play.
    assert.equal(await page.locator('.board .cell.chosen').getAttribute('data-cell'), e.moves.find((m) => m.move === e.chosen).cells[0].join('|'));
    assert.equal(await page.locator('.board .cell.runner-up').getAttribute('data-cell'), e.moves.find((m) => m.move === e.runnerUp).cells[0].join('|'));
    // The chosen move's relaxed plan, numbered on the board: the plan's cells from Rust, in order.
    const best = e.moves.find((m) => m.move === e.chosen);
    const goal = best.goals.filter((g) => g.hFf !== null && g.plan.length).reduce((a, b) => (b.goal > a.goal ? b : a));
    const marks = await page.locator('.board .cell .plan-mark').evaluateAll((l) => l.map((m) => [m.parentElement.dataset.cell, m.textContent]));
    const want = goal.planCells.flatMap((cells, i) => cells.map((c) => [c.join('|'), String(i + 1)]));
    assert.ok(want.length >= 1, JSON.stringify(goal));
    assert.deepEqual(marks.sort(), want.sort());
    await shot(page, 'play-why-heatmap');
    // Another move's plan from its row in the table (which stays, for screen readers and copying).
    const other = e.moves.find((m) => m.move !== e.chosen && m.goals.some((g) => g.plan.length));
    await page.locator(`.why-table tr[data-move="${other.move}"] button.why-plan-button`).click();
    await page.waitForFunction((mv) => document.querySelector('.why-table tr.why-plan')?.dataset.move === mv, other.move);
    assert.ok((await page.locator('.board .cell .plan-mark').count()) >= 1);
    await shot(page, 'play-why-plan');
    // The thesis's costs: every first move of x is worth 25/3, on the board as in explain.
    await page.locator('button', { hasText: '⟲ Restart' }).click();
    await page.locator('.why-panel select[aria-label="action costs of the planning heuristics"]').selectOption('thesis');
    await page.locator('.why-panel button', { hasText: 'Why?' }).click();
    await page.waitForFunction(() => /fjo-thesis/.test(document.querySelector('.why-summary')?.textContent ?? ''), null, { timeout: 60_000 });
    const first = await boardValues(page);
    assert.equal(Object.keys(first).length, 9, JSON.stringify(first));
    for (const v of Object.values(first)) assert.ok(Math.abs(v - 25 / 3) < 1e-9, JSON.stringify(first));
    const thesis = await worker.explain(kif, { heuristic: 'fjo', costs: 'thesis' });
    assert.deepEqual(first, Object.fromEntries(thesis.moves.map((m) => [m.move, m.value])));
    await shot(page, 'play-why-thesis');
  } finally {
    worker.terminate();
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('tree: a node\'s Why? drawn on its board, its children\'s and the exported SVG', async () => {
  const { page, errors, context } = await open('?view=tree&game=ticTacToe&source=initial&depth=1&heuristic=fjo-thesis&step=end');
  await page.waitForFunction(() => document.querySelector('.tree-status')?.textContent === '10 nodes searched.', null, { timeout: 60_000 });
  assert.equal(await page.locator('.tree-form select[aria-label="action costs of the planning heuristics at the leaves"]').inputValue(), 'thesis');
  const canvas = page.locator('.tree-canvas').first();
  await canvas.focus();
  await page.keyboard.press('ArrowUp');
  await page.locator('.node-why button').click();
  await page.waitForSelector('.node-details .board .cell.heat', { timeout: 60_000 });
  const values = await page.locator('.node-why-list li').evaluateAll((l) => l.map((li) => Number(li.dataset.value)));
  assert.equal(values.length, 9);
  for (const v of values) assert.ok(Math.abs(v - 25 / 3) < 1e-9, JSON.stringify(values));
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await frame(page);
  await shot(page, 'tree-why-heatmap');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button', { hasText: 'SVG' }).click()]);
  const svg = readFileSync(await download.path(), 'utf8');
  assert.match(svg, /hsl\(/, 'heat colours in the exported node boards');
  assert.match(svg, /class="plan-mark"/, 'the plan numbered in the exported root board');
  assert.deepEqual(errors, []);
  await context.close();
});

test('structure: boards inside the nodes of a tic-tac-toe tree, and the Structure panel', async () => {
  const { page, errors, context } = await open('?view=tree&game=ticTacToe&tree=((1 2) (3 4))');
  await page.waitForSelector('.step-counter[data-total]');
  await page.locator('label.radio', { hasText: 'initial state' }).click();
  await page.waitForFunction(() => / nodes searched\./.test(document.querySelector('.tree-status').textContent), null, { timeout: 60_000 });
  await page.locator('button[aria-label="Jump to the end"]').click();
  // Zoomed in to depth 2, every node in view shows its position as a board (from the Rust structure).
  const canvas = page.locator('.tree-canvas').first();
  await canvas.focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('+');
  await frame(page);
  await page.waitForFunction(() => Number(document.querySelector('.tree-canvas').dataset.boards) > 0, null, { timeout: 60_000 });
  await shot(page, 'tree-tictactoe-boards');
  // The Rules view lists the structure found in the rules.
  const rules = await open('?view=editor&game=ticTacToe', { context });
  await rules.page.locator('button', { hasText: 'Structure' }).click();
  await rules.page.waitForSelector('.structure-list', { timeout: 60_000 });
  // The panel opens where the user looks: in the viewport, focused.
  const box = await rules.page.locator('.structure-panel:not(.ground-panel)').boundingBox();
  const viewport = rules.page.viewportSize();
  assert.ok(box && box.y > -2 && box.y + Math.min(box.height, 100) <= viewport.height && box.x < viewport.width && box.width > 0, JSON.stringify(box));
  assert.equal(await rules.page.evaluate(() => document.activeElement?.classList.contains('structure-panel')), true);
  // A structure's rules are marked in the editor (spans from Rust).
  await rules.page.locator('.structure-panel:not(.ground-panel) button.structure-rules').first().click();
  await rules.page.waitForSelector('.cm-structure-rule');
  assert.match(await rules.page.locator('.cm-structure-rule').first().textContent(), /\(/);
  const text = await rules.page.locator('.structure-panel:not(.ground-panel)').textContent();
  assert.match(text, /turn-taking/);
  assert.match(text, /\(cell …\) 3 × 3/);
  assert.match(text, /Markers: blank, o, x/);
  // The board links to the first rule that defines it (line 17: its `init`).
  await rules.page.locator('.structure-panel:not(.ground-panel) button.link', { hasText: 'line 17' }).click();
  await rules.page.locator('.structure-panel:not(.ground-panel)').scrollIntoViewIfNeeded();
  await shot(rules.page, 'rules-structure');
  assert.deepEqual(errors, []);
  assert.deepEqual(rules.errors, []);
  await context.close();
});

test('instantiation: the panel shows the ground atoms Rust counts for tic-tac-toe, why a game that explodes is not grounded, the hybrid network of a game whose goal explodes, the guards kept in pancakes and the subgames of two boards', async () => {
  const kif = (name) => readFileSync(join(ROOT, 'games', `${name}.kif`), 'utf8');
  const expected = groundReport(kif('ticTacToe'));
  assert.equal(expected.outcome, 'grounded');
  const { page, errors, context } = await open('?view=editor&game=ticTacToe');
  await page.locator('button', { hasText: 'Instantiation' }).click();
  await page.waitForSelector('.ground-panel .ground-relations', { timeout: 60_000 });
  const shown = await page.locator('.ground-panel tr[data-relation]').evaluateAll((rows) => rows.map((r) => [r.dataset.relation, r.cells[1].textContent]));
  assert.ok(shown.length >= 5, JSON.stringify(shown));
  assert.deepEqual(shown, expected.relations.map((c) => [c.relation, c.atoms.toLocaleString('en-US')]));
  const network = await page.locator('.ground-panel .ground-network').textContent();
  assert.match(network, new RegExp(`${expected.network.gates.toLocaleString('en-US')} gates, .*depth ${expected.network.depth}`));
  const top = await page.locator('.ground-panel .ground-top li').count();
  assert.equal(top, expected.topRules.length);
  await shot(page, 'rules-instantiation');
  // A rule joining five independent numbers (60^5 instances) is refused by
  // the size estimate at once, whatever the machine's load: the reason,
  // the rule and its line.
  const explode = [
    '(role a) (role b) (init (count 0))',
    Array.from({ length: 60 }, (_, i) => `(num ${i})`).join(' '),
    '(<= (big ?v ?w ?x ?y ?z) (num ?v) (num ?w) (num ?x) (num ?y) (num ?z))',
    '(<= (legal a (pick ?v)) (true (count ?v)) (big ?v ?w ?x ?y ?z))',
    '(legal b noop)',
    '(<= (next (count ?v)) (does a (pick ?v)))',
    '(<= terminal (true (count 59)))',
    '(goal a 100) (goal b 0)',
  ].join('\n');
  const refused = groundReport(explode);
  assert.equal(refused.outcome, 'refused');
  const exploding = await open(`?view=editor&kif=${deflateSync(explode).toString('base64url')}`, { context });
  await exploding.page.locator('button', { hasText: 'Instantiation' }).click();
  await exploding.page.waitForSelector('.ground-panel .ground-stop', { timeout: 60_000 });
  assert.equal(await exploding.page.locator('.ground-panel .ground-stop').textContent(), `Why: ${refused.stop.reason}`);
  const where = await exploding.page.locator('.ground-panel .ground-where').textContent();
  assert.equal(where, `Where: the rule for ${refused.stop.rule} line ${refused.stop.line}`);
  // A puzzle whose goal alone explodes (ten cells all different: 10^10
  // instances): refused whole, and the panel shows the hybrid engine's
  // network of the moves, as Rust counts it.
  const puzzle = readFileSync(join(ROOT, 'crate', 'engine', 'testdata', 'hybrid_puzzle.kif'), 'utf8');
  const rest = groundReport(puzzle);
  assert.equal(rest.hybrid, 'goal');
  const hybrid = await open(`?view=editor&kif=${deflateSync(puzzle).toString('base64url')}`, { context });
  await hybrid.page.locator('button', { hasText: 'Instantiation' }).click();
  await hybrid.page.waitForSelector('.ground-panel .ground-hybrid', { timeout: 60_000 });
  assert.match(await hybrid.page.locator('.ground-panel .ground-hybrid').textContent(), /the interpreter answers goal/);
  assert.match(await hybrid.page.locator('.ground-panel .ground-network').textContent(), new RegExp(`${rest.network.gates.toLocaleString('en-US')} gates`));
  await shot(hybrid.page, 'rules-instantiation-hybrid');
  // Five pancakes: each flip guards its orderings' ANDs, as Rust reports.
  const pancakes = readFileSync(join(ROOT, 'crate', 'engine', 'testdata', 'guarded_game.kif'), 'utf8');
  const guarded = groundReport(pancakes).network;
  assert.ok(guarded.guards >= 5, JSON.stringify(guarded));
  const flips = await open(`?view=editor&kif=${deflateSync(pancakes).toString('base64url')}`, { context });
  await flips.page.locator('button', { hasText: 'Instantiation' }).click();
  await flips.page.waitForSelector('.ground-panel .ground-guards', { timeout: 60_000 });
  const guards = await flips.page.locator('.ground-panel .ground-guards').textContent();
  assert.match(guards, new RegExp(`^Guarded ANDs: ${guarded.guards} of ${guarded.guardCandidates} propositions tried .*\\(${guarded.guardedAnds.toLocaleString('en-US')} ANDs\\)`));
  // Two boards played at once: the panel lists the subgames Rust finds.
  const twoBoards = readFileSync(join(ROOT, 'crate', 'engine', 'testdata', 'two_boards_game.kif'), 'utf8');
  const parts = groundReport(twoBoards).network.subgames;
  assert.equal(parts.length, 2);
  const boards = await open(`?view=editor&kif=${deflateSync(twoBoards).toString('base64url')}`, { context });
  await boards.page.locator('button', { hasText: 'Instantiation' }).click();
  await boards.page.waitForSelector('.ground-panel .ground-subgames', { timeout: 60_000 });
  const listed = await boards.page.locator('.ground-panel .ground-subgames').textContent();
  assert.match(listed, new RegExp(`^Subgames: 2 independent parts \\(part 1: ${parts[0].base} base, ${parts[0].legals} legal, 2 roles moving; part 2: ${parts[1].base} base`));
  // A count over a row of cells by a recursion: one fold, as Rust reports.
  const counting = readFileSync(join(ROOT, 'crate', 'engine', 'testdata', 'fold_game.kif'), 'utf8');
  assert.equal(groundReport(counting).folds, 1);
  const fold = await open(`?view=editor&kif=${deflateSync(counting).toString('base64url')}`, { context });
  await fold.page.locator('button', { hasText: 'Instantiation' }).click();
  await fold.page.waitForSelector('.ground-panel .ground-decomposed', { timeout: 60_000 });
  assert.match(await fold.page.locator('.ground-panel .ground-decomposed').textContent(), /; 1 recursion that carries its answer through, rewritten as a fold$/);
  assert.deepEqual(errors, []);
  assert.deepEqual(exploding.errors, []);
  assert.deepEqual(hybrid.errors, []);
  assert.deepEqual(flips.errors, []);
  assert.deepEqual(boards.errors, []);
  assert.deepEqual(fold.errors, []);
  await context.close();
});

test('play: MCTS on several Web Workers (cores), a whole game', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=mcts:ms=100,cores=2;mcts:ms=100');
  // The engine setting: cores for MCTS, `cores: auto` by default.
  assert.equal(await page.locator('select[aria-label="cores for x"]').inputValue(), '2');
  assert.equal(await page.locator('select[aria-label="cores for o"]').inputValue(), 'auto');
  assert.ok(await page.locator('select[aria-label="cores for o"] option', { hasText: 'cores: auto' }).count());
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  assert.ok((await page.locator('.history li').count()) >= 6, 'a game of at least five moves');
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: the default engine, MCTS-Solver, on two Web Workers (a tree each), a whole game it does not lose', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=mcts-solver:ms=200,cores=2;random');
  assert.equal(await page.locator('select[aria-label="engine for x"]').inputValue(), 'mcts-solver');
  assert.equal(await page.locator('select[aria-label="cores for x"]').inputValue(), '2');
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  assert.ok((await page.locator('.history li').count()) >= 6, 'a game of at least five moves');
  // Tic-tac-toe's first player, searched to its proofs, never loses to random moves.
  assert.notEqual(await page.locator('.goal-list li[data-role="x"] .goal-value').textContent(), '0');
  // Not isolated (service workers blocked here): the page says why it used workers.
  assert.match(await page.locator('.play-status').getAttribute('title'), /2 workers\) \(one tree per worker: the page is not cross-origin isolated/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: alpha-beta on several Web Workers (cores=2, lazy SMP), a whole game', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=alphabeta:ms=100,cores=2;alphabeta:ms=100');
  // Alpha-beta has the cores setting too; one core by default (each worker keeps its own table).
  assert.equal(await page.locator('select[aria-label="cores for x"]').inputValue(), '2');
  assert.equal(await page.locator('select[aria-label="cores for o"]').inputValue(), '1');
  assert.ok(await page.locator('select[aria-label="cores for x"]').isVisible());
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60_000 });
  assert.ok((await page.locator('.history li').count()) >= 6, 'a game of at least five moves');
  assert.deepEqual(errors, []);
  await context.close();
});

test('play: the ensemble with its members on several Web Workers, a whole game', async () => {
  const { page, errors, context } = await open('?view=play&game=ticTacToe&players=ensemble:ms=100,cores=2;random');
  assert.equal(await page.locator('select[aria-label="engine for x"]').inputValue(), 'ensemble');
  assert.equal(await page.locator('select[aria-label="cores for x"]').inputValue(), '2');
  await page.locator('.goals').waitFor({ state: 'visible', timeout: 60000 });
  assert.ok((await page.locator('.history li').count()) >= 5, 'a game of at least five moves');
  assert.deepEqual(errors, []);
  await context.close();
});
