// Every library game's board as a student sees it: the play view (served
// site/, after `npm run build`, in headless Chromium) at the start and
// after a few moves, one PNG each in test-artifacts/boards/, and a contact
// sheet of them all (test-artifacts/boards/all.png, the gallery's
// thumbnails in thumbnails.png; with
// GDLKIT_BOARDS_DOC=1 also docs/boards.png, shown in README.md). Asserted
// without eyes: no text wider than its cell, every piece inside its cell
// and the board, distinct owners drawn distinctly, hex games with six
// neighbours per inner cell, morris's points on lines, and the gallery's
// thumbnails likewise.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, ROOT, SITE } from '../scripts/lib.mjs';
import { serve } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';
import { Game } from '../js/node.js';

const OUT = join(ARTIFACTS, 'boards');
/** Moves played before the second picture. */
const MOVES = 4;
/** Games with six neighbours per cell (the rest are square or one row). */
const HEX_GAMES = new Set(['hex']);
/** Games drawn as points joined by lines, with their number of points. */
const LINE_GAMES = { nineMensMorris: 24 };
/**
 * Games drawn in a shape of their own (Rust's `shape`; the rest are grids):
 * boards of a shape, and scenes of games without a board.
 */
const SHAPES = {
  hanoi: 'pegs',
  kalah: 'mancala',
  blocksWorld: 'stacks',
  kuhnPoker: 'hands',
  leducPoker: 'hands',
  buttonsAndLights: 'lamps',
  buttonsAndLightsCounter: 'lamps',
  maze: 'rooms',
  montyHall: 'doors',
  dotsAndBoxes: 'dots',
};
/** Games shown as their state's fact list, with the reason (none now: every library game is drawn). */
const FACT_LISTS = {};

let server;
let url;
let browser;

before(async () => {
  assert.ok(existsSync(join(SITE, 'build', 'app.js')), 'site/build is missing: run `npm run build` first');
  mkdirSync(OUT, { recursive: true });
  ({ server, url } = await serve({ port: 0, quiet: true }));
  browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** The library's games; GDLKIT_BOARDS=hex,checkers draws only those (no floors then). */
const only = process.env.GDLKIT_BOARDS?.split(',').filter(Boolean);
const names = readdirSync(join(ROOT, 'games'))
  .filter((f) => f.endsWith('.kif'))
  .map((f) => f.slice(0, -4))
  .filter((n) => !only || only.includes(n))
  .sort();

/**
 * A few moves from the start, the same every run: each role's middle legal
 * move; `steps` also counts the forced steps (every role has one legal
 * move) the page then plays on its own.
 */
function someMoves(kif) {
  const game = new Game(kif, { engine: 'interpreter' });
  try {
    const roles = game.roles();
    let state = game.initialState();
    const moves = [];
    let steps = 0;
    for (;;) {
      if (game.isTerminal(state)) break;
      const legal = roles.map((r) => game.legalMoves(state, r));
      const forced = legal.every((l) => l.length === 1);
      if (moves.length >= MOVES && !forced) break;
      const joint = legal.map((l) => l[Math.floor(l.length / 2)]);
      if (!forced || moves.length < MOVES) moves.push(joint);
      state = game.next(state, joint);
      steps += 1;
    }
    return { roles, moves, steps, gdl2: game.isGdl2 };
  } finally {
    game.free();
  }
}

/** What can be checked of the drawn board without eyes (run in the page). */
function inspectBoard() {
  const rect = (e) => e.getBoundingClientRect();
  const inside = (a, b, slack = 1.5) =>
    a.left >= b.left - slack && a.top >= b.top - slack && a.right <= b.right + slack && a.bottom <= b.bottom + slack;
  const board = document.querySelector('.board-box .board');
  if (!board) return { drawn: false, list: Boolean(document.querySelector('.fluents-details li')) };
  const problems = [];
  const cells = [...board.querySelectorAll('.cell')];
  const box = rect(board);
  const owners = new Map();
  for (const cell of cells) {
    const c = rect(cell);
    for (const d of cell.querySelectorAll('.drawing')) {
      if (!inside(rect(d), c)) problems.push(`${cell.dataset.cell}: the drawing leaves its cell`);
      if (!inside(rect(d), box)) problems.push(`${cell.dataset.cell}: the drawing leaves the board`);
      for (const t of d.querySelectorAll('text')) {
        if (rect(t).width > c.width + 1) problems.push(`${cell.dataset.cell}: text "${t.textContent}" is wider than its cell`);
      }
      if (d.dataset.owner !== undefined) {
        const looks = owners.get(d.dataset.owner) ?? new Set();
        looks.add(d.innerHTML);
        owners.set(d.dataset.owner, looks);
      }
    }
    for (const t of cell.querySelectorAll(':scope > span')) {
      if (rect(t).width > c.width + 1) problems.push(`${cell.dataset.cell}: "${t.textContent}" is wider than its cell`);
    }
  }
  // shapeProblems is defined in the page by `picture`.
  problems.push(...shapeProblems(board, cells, rect));
  const looks = [...owners.entries()];
  for (let i = 0; i < looks.length; i++) {
    for (let j = i + 1; j < looks.length; j++) {
      const shared = [...looks[i][1]].filter((l) => looks[j][1].has(l));
      if (shared.length) problems.push(`owners ${looks[i][0]} and ${looks[j][0]} share a drawing`);
    }
  }
  // Neighbours by distance between centres: six on a hex board's inner cells.
  const centres = cells.map((c) => {
    const r = rect(c);
    return [r.left + r.width / 2, r.top + r.height / 2, r.width];
  });
  const neighbours = centres.map(([x, y, w]) => centres.filter(([u, v]) => (u !== x || v !== y) && Math.hypot(u - x, v - y) < w * 1.1).length);
  return {
    drawn: true,
    shape: [...board.classList].find((c) => c.startsWith('shape-'))?.slice(6) ?? '',
    hex: board.classList.contains('hex'),
    lines: board.classList.contains('lines'),
    points: board.querySelectorAll('.cell.point').length,
    cells: cells.length,
    pieces: board.querySelectorAll('.drawing').length,
    owners: owners.size,
    mostNeighbours: Math.max(0, ...neighbours),
    problems,
  };
}

/**
 * What a shaped board must look like (run in the page, inside
 * inspectBoard): pegs' discs of distinct contents have distinct widths;
 * stacks' blocks stand on the table or on another block; mancala has two
 * stores, each as tall as two pits, and two pits per inner column.
 */
function shapeProblems(board, cells, rect) {
  const problems = [];
  if (board.classList.contains('shape-pegs')) {
    const widths = new Map();
    for (const d of board.querySelectorAll('.drawing[data-kind="bar"]')) widths.set(d.dataset.content, rect(d.querySelector('rect')).width);
    if (new Set(widths.values()).size !== widths.size) problems.push(`discs of equal width: ${JSON.stringify([...widths])}`);
    if (widths.size < 2) problems.push('fewer than two discs drawn');
    const sorted = [...widths.values()].sort((a, b) => a - b);
    if (sorted.length >= 2 && sorted.at(-1) < 1.5 * sorted[0]) problems.push(`discs hardly differ in width: ${sorted}`);
  }
  const kinds = (kind) => board.querySelectorAll(`.drawing[data-kind="${kind}"]`).length;
  if (board.classList.contains('shape-lamps')) {
    const lamps = kinds('lamp');
    if (lamps < 1 || lamps !== board.querySelectorAll('.drawing .bulb').length) problems.push(`${lamps} lamps`);
  }
  if (board.classList.contains('shape-doors') && kinds('door') + kinds('opening') !== 3) problems.push(`${kinds('door')} closed and ${kinds('opening')} open doors`);
  if (board.classList.contains('shape-rooms') && board.querySelectorAll('.drawing .agent').length !== 1) problems.push('not one agent in the rooms');
  if (board.classList.contains('shape-hands')) {
    const other = [...board.querySelectorAll('.drawing')].filter((d) => d.dataset.kind !== 'card');
    if (other.length) problems.push(`hands holding ${other.map((d) => d.dataset.kind)}`);
  }
  if (board.classList.contains('shape-stacks')) {
    const rows = [...board.querySelectorAll('.board-row')].map((row) => [...row.querySelectorAll('.cell')]);
    for (const [r, row] of rows.entries()) {
      for (const [c, cell] of row.entries()) {
        const below = rows[r + 1]?.[c];
        if (cell.querySelector('.drawing') && below && !below.querySelector('.drawing')) problems.push(`${cell.dataset.cell}: a block in the air`);
      }
    }
  }
  if (board.classList.contains('lines')) {
    for (const p of board.querySelectorAll('.cell.point')) {
      if (!p.querySelector('.line')) problems.push(`${p.dataset.cell}: a point on no line`);
    }
    if (board.classList.contains('checkered')) problems.push('a lines board drawn checkered');
  }
  if (board.classList.contains('shape-dots')) {
    // Dots where both places are even, lines between them, a box in each gap; drawn lines solid.
    const kind = (k) => cells.filter((c) => c.classList.contains(k));
    const cols = board.querySelector('.board-row').querySelectorAll('.cell').length;
    const rows = board.querySelectorAll('.board-row').length;
    const n = ((cols + 1) / 2) * ((rows + 1) / 2);
    if (kind('dot').length !== n) problems.push(`${kind('dot').length} dots for ${cols} x ${rows} cells`);
    if (kind('box').length !== ((cols - 1) / 2) * ((rows - 1) / 2)) problems.push(`${kind('box').length} boxes`);
    if (kind('across').length + kind('down').length !== cols * rows - n - kind('box').length) problems.push('lines missing');
    for (const d of kind('drawn')) if (d.querySelector('.drawing')) problems.push(`${d.dataset.cell}: a drawn line written as a token`);
    for (const d of kind('dot')) if (d.querySelector('.drawing')) problems.push(`${d.dataset.cell}: a piece on a dot`);
  }
  if (board.classList.contains('shape-mancala')) {
    const stores = cells.filter((c) => c.classList.contains('store'));
    const pits = cells.filter((c) => !c.classList.contains('store') && !c.classList.contains('void'));
    const cols = board.querySelector('.board-row').querySelectorAll('.cell').length;
    if (stores.length !== 2) problems.push(`${stores.length} stores`);
    if (pits.length !== 2 * (cols - 2)) problems.push(`${pits.length} pits for ${cols} columns`);
    const h = pits.length ? rect(pits[0]).height : 0;
    for (const s of stores) if (Math.abs(rect(s).height - 2 * h) > 1) problems.push(`store ${s.dataset.cell} is not two pits tall`);
  }
  return problems;
}

/** Which library games have a board (the library's headers, site/games/index.json). */
const withBoard = () => new Set(JSON.parse(readFileSync(join(SITE, 'games', 'index.json'), 'utf8')).filter((g) => g.board).map((g) => g.name));

/** The state's list as wide as its items (run in the page), not the whole column. */
function listBox() {
  const box = document.querySelector('.fluents-details').getBoundingClientRect();
  // The right edge of the text itself (block elements span the column).
  const walker = document.createTreeWalker(document.querySelector('.fluents-details'), NodeFilter.SHOW_TEXT);
  let right = box.left + 40;
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(t);
    right = Math.max(right, range.getBoundingClientRect().right);
  }
  return { x: box.left, y: box.top, width: Math.min(box.width, right - box.left + 8), height: box.height };
}

/** The drawn board (or the state's list) in a PNG, and what inspectBoard finds. */
async function picture(page, file, board) {
  // A game without a board in its header may still have one found in its rules.
  await page.waitForSelector(board ? '.board-box > :first-child' : '.board-box > :first-child, .fluents-details', { timeout: 60_000 });
  const drawn = await page.locator('.board-box > :first-child').count();
  const path = join(OUT, `${file}.png`);
  if (drawn) await page.locator('.board-box > :first-child').screenshot({ path });
  else await page.screenshot({ path, clip: await page.evaluate(listBox) });
  // inspectBoard calls shapeProblems: define it in the page first.
  await page.addScriptTag({ content: `${shapeProblems}` });
  return page.evaluate(inspectBoard);
}

/**
 * A library game in the play view, one page load: after `moves` and the
 * forced steps after them (`steps` in all), then back at the start (the
 * move list's first entry). In GDL-II games random players play on.
 */
async function showGame(page, name, { roles, moves, steps, gdl2 }, board) {
  // GDL-II hides the board from human seats until the end: random players play it (the page shows them everything).
  const players = roles.map(() => (gdl2 ? 'random' : 'human')).join(';');
  const played = moves.map((joint) => joint.join(',')).join(';');
  const query = `?view=play&game=${name}&players=${encodeURIComponent(players)}${played ? `&moves=${encodeURIComponent(played)}` : ''}`;
  await page.goto(new URL(query, url).href);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
  await page.waitForFunction((n) => document.querySelectorAll('.history li').length >= n + 1, steps, { timeout: 60_000 });
  // Random players play a GDL-II game to its end (the reveal): pictures of
  // a board still being redrawn would race it.
  if (gdl2) await page.locator('.reveal').waitFor({ timeout: 60_000 });
  const after = await picture(page, `${name}-moves`, board);
  await page.locator('.history li:first-child button').click();
  await page.waitForSelector('.history li:first-child.current', { timeout: 60_000 });
  const start = await picture(page, `${name}-start`, board);
  return { start, moves: after };
}

const results = [];

test('boards: every library game drawn at the start and after a few moves', { timeout: 20 * 60_000 }, async (t) => {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const boards = withBoard();
  for (const name of names) {
    const shown = await showGame(page, name, someMoves(readFileSync(join(ROOT, 'games', `${name}.kif`), 'utf8')), boards.has(name));
    for (const stage of ['start', 'moves']) {
      const r = shown[stage];
      results.push({ name, stage, ...r });
      assert.ok(r.drawn || name in FACT_LISTS, `${name} (${stage}): drawn as its fact list`);
      if (!r.drawn) continue;
      assert.deepEqual(r.problems, [], `${name} (${stage})`);
      assert.equal(r.hex, HEX_GAMES.has(name), `${name}: hex geometry`);
      assert.equal(r.shape, SHAPES[name] ?? '', `${name}: shape`);
      assert.equal(r.lines, name in LINE_GAMES, `${name}: points joined by lines`);
      if (r.lines) assert.equal(r.points, LINE_GAMES[name], `${name}: points`);
      if (r.hex) assert.equal(r.mostNeighbours, 6, `${name}: six neighbours per inner cell`);
      else assert.ok(r.mostNeighbours <= 4, `${name}: at most four neighbours on a square board`);
    }
  }
  const drawn = results.filter((r) => r.drawn);
  t.diagnostic(`${names.length} games, ${new Set(drawn.map((r) => r.name)).size} with a board, pictures in ${OUT}`);
  assert.deepEqual(errors, []);
  await contactSheet(page);
  await context.close();
  if (only) return;
  assert.ok(names.length >= 30, 'at least 30 games in the library');
  assert.ok(results.filter((r) => r.stage === 'start' && (r.drawn || r.list)).length >= 30, 'at least 30 games rendered');
  assert.ok(new Set(drawn.map((r) => r.name)).size >= 25, 'at least 25 games drawn as boards');
});

/** All pictures on one page, each titled: test-artifacts/boards/all.png (and docs/boards.png on request). */
async function contactSheet(page) {
  const tiles = names
    .map((name) => {
      const pngs = ['start', 'moves'].map((s) => readFileSync(join(OUT, `${name}-${s}.png`)).toString('base64'));
      const imgs = pngs.map((b) => `<img src="data:image/png;base64,${b}">`).join('');
      return `<figure><figcaption>${name}</figcaption><div>${imgs}</div></figure>`;
    })
    .join('');
  await page.setContent(`<!doctype html><style>
    body { margin: 8px; font: 13px sans-serif; display: grid; grid-template-columns: repeat(6, 1fr); gap: 6px; width: 1800px; }
    figure { margin: 0; border: 1px solid #ddd; padding: 3px; }
    figure div { display: flex; gap: 3px; align-items: center; }
    img { max-width: 50%; max-height: 130px; object-fit: contain; }
  </style>${tiles}`);
  await page.setViewportSize({ width: 1820, height: 900 });
  const sheet = join(OUT, 'all.png');
  await page.screenshot({ path: sheet, fullPage: true });
  if (process.env.GDLKIT_BOARDS_DOC === '1') copyFileSync(sheet, join(ROOT, 'docs', 'boards.png'));
}

test('boards: the gallery thumbnails draw pieces, never cut-off text', async () => {
  const index = JSON.parse(readFileSync(join(SITE, 'games', 'index.json'), 'utf8'));
  const thumbs = index.filter((g) => g.thumbnail);
  assert.ok(thumbs.length >= 25, `${thumbs.length} thumbnails`);
  const page = await browser.newPage({ serviceWorkers: 'block' });
  const svgs = thumbs.map((g) => readFileSync(join(SITE, 'games', g.thumbnail), 'utf8'));
  const style = '<style>body { display: flex; flex-wrap: wrap; gap: 8px; width: 1200px; } .thumb svg { width: 140px; height: 140px; }</style>';
  await page.setContent(`<!doctype html>${style}<body>${svgs.map((s) => `<div class="thumb">${s}</div>`).join('')}</body>`);
  await page.screenshot({ path: join(OUT, 'thumbnails.png'), fullPage: true });
  const problems = await page.evaluate(() => {
    const out = [];
    for (const piece of document.querySelectorAll('.thumb svg svg')) {
      const cell = piece.getBoundingClientRect();
      for (const t of piece.querySelectorAll('text')) {
        if (t.getBoundingClientRect().width > cell.width + 1) out.push(`"${t.textContent}" is wider than its cell`);
      }
    }
    return out;
  });
  assert.deepEqual(problems, []);
  await page.close();
});
