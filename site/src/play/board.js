// Boards drawn from the state, for any game. Which fluent is a board, its
// coordinates and the cells of each state come from Rust (the structure,
// crate/play/src/structure, and `boardCells` in crate/play/src/structure/board.rs,
// sent by the engine worker with each state as `board`: {fluent, size, xs,
// ys, zs, cells: [{x, y, z, content}], rest}); this module only draws the
// grid (one per value of a third coordinate, side by side; a 1-D board is
// one row). Nothing here is specific to a game: no per-game stylesheet, no
// per-game code. Every symbol is inserted as text. An explanation's
// overlay (overlay.js: heat map, numbered plan marks, the chosen move and
// its runner-up) and the Perfect-play marks (perfect.js) are drawn on the
// cells they name.

import { heatLabel, heatTitle } from './overlay.js';

/** Content symbols shown as an empty cell. */
const BLANKS = new Set(['b', 'blank', 'empty', 'none', 'free', 'nil', 'space', '_', '-', '.']);

/** Chess pieces by common GDL names. */
const PIECES = {
  wk: '♔', wq: '♕', wr: '♖', wb: '♗', wn: '♘', wp: '♙',
  bk: '♚', bq: '♛', br: '♜', bb: '♝', bn: '♞', bp: '♟',
  white_king: '♔', white_queen: '♕', white_rook: '♖', white_bishop: '♗', white_knight: '♘', white_pawn: '♙',
  black_king: '♚', black_queen: '♛', black_rook: '♜', black_bishop: '♝', black_knight: '♞', black_pawn: '♟',
};

/** Colour names shown as discs (with the name as the label). */
const DISCS = {
  red: '#d63a32', yellow: '#f2c200', white: '#ffffff', black: '#1d2330', blue: '#2456c7',
  green: '#1b8a4a', orange: '#f07d00', purple: '#7a3cc2', brown: '#8a5a2b',
};

/** Background tints for other symbols, in order of first appearance (light enough for dark text). */
const TINTS = ['#dbe7ff', '#ffe1d6', '#dff5e3', '#f6e6ff', '#fff3c4', '#d9f3f5', '#f2e3d5', '#e9ecef'];

/** The cells of one layer (`z`, "" on a board with fewer than 3 coordinates): Map "x|y" → content text. */
export function cellMap(board, z = '') {
  return new Map(board.cells.filter((c) => c.z === z).map((c) => [`${c.x}|${c.y}`, c.content]));
}

/** A cell's key from its coordinates (`[x, y]` or `[x, y, z]`, as `moveCells` gives them): `x|y` or `x|y|z`. */
export function cellKey(coordinates) {
  return coordinates.join('|');
}

/** A cell key (`x|y` or `x|y|z`) as flatBoard keys the cell: `x|y`, or `x@z|y`. */
export function flatKey(key) {
  const [x, y, z] = key.split('|');
  return z === undefined ? `${x}|${y}` : `${x}@${z}|${y}`;
}

/** The layers of a board: the values of its third coordinate, or [""] when it has none. */
export function layers(board) {
  return board.zs.length ? board.zs : [''];
}

/**
 * A board for a small drawing ({cols, rows, cells: Map "col|row" →
 * content}): the layers of a 3-D board side by side, as the full view.
 */
export function flatBoard(board) {
  const zs = layers(board);
  const cols = zs.flatMap((z) => board.xs.map((x) => (z ? `${x}@${z}` : x)));
  const cells = new Map(board.cells.map((c) => [`${c.z ? `${c.x}@${c.z}` : c.x}|${c.y}`, c.content]));
  return { cols, rows: [...board.ys].reverse(), cells };
}

/** How a content symbol is shown: {text, label, disc?, tint?, blank}. */
export function symbolLook(content, palette) {
  const key = content.toLowerCase();
  if (BLANKS.has(key)) {
    return { text: '', label: 'empty', blank: true };
  }
  if (PIECES[key]) {
    return { text: PIECES[key], label: content, piece: true };
  }
  if (DISCS[key]) {
    return { text: '', label: content, disc: DISCS[key] };
  }
  if (!palette.has(key)) palette.set(key, TINTS[palette.size % TINTS.length]);
  const text = content.length <= 3 ? content : content.slice(0, 3);
  return { text, label: content, tint: palette.get(key) };
}

/** The grid's rows and columns after the view's orientation (transpose / flip). */
export function gridAxes(board, orientation = {}) {
  let cols = board.xs;
  let rows = [...board.ys].reverse(); // y grows upwards, as on a chess board
  let colIsX = true;
  if (orientation.transpose) {
    cols = board.ys;
    rows = [...board.xs];
    colIsX = false;
  }
  if (orientation.flip) rows = [...rows].reverse();
  return { cols, rows, key: (col, row) => (colIsX ? `${col}|${row}` : `${row}|${col}`) };
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Renders the board of a state (`board` as sent by the worker): one grid
 * per layer, side by side, each titled by its value of the third
 * coordinate. Options as renderGrid's; on a layered board a cell's key
 * (in `targets`, `marked`, `selected`, `onCell` and `data-cell`) ends with
 * its layer, `x|y|z`, as cellKey makes it from Rust's move cells.
 */
export function renderBoard(board, options = {}) {
  const zs = layers(board);
  if (zs.length === 1) return renderGrid(board, cellMap(board), options);
  const box = el('div', 'board-layers');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', `board ${board.fluent}, ${zs.length} layers`);
  for (const z of zs) {
    const layer = el('figure', 'board-layer');
    layer.dataset.layer = z;
    layer.append(renderGrid(board, cellMap(board, z), { ...options, layer: z }), el('figcaption', undefined, z));
    box.append(layer);
  }
  return box;
}

/**
 * Renders one grid of a board. `targets` (optional) maps a cell key to a description
 * of what clicking it does; `onCell(key)` is called for clicks on targets.
 * `marked` is a set of keys to outline (a selected piece, the last move).
 * Returns the element (a grid of buttons when interactive, of divs
 * otherwise); arrow keys move between the cells of an interactive board.
 */
function renderGrid(board, cells, { orientation, targets, onCell, marked, selected, small = false, palette = new Map(), layer = '', overlay = null } = {}) {
  const { cols, rows, key } = gridAxes(board, orientation);
  const interactive = Boolean(onCell);
  const checkered = cols.length >= 4 && rows.length >= 4;
  const grid = el('div', `board${small ? ' board-small' : ''}${checkered ? ' checkered' : ''}`);
  grid.setAttribute('role', interactive ? 'grid' : 'img');
  grid.style.setProperty('--cols', cols.length);
  grid.style.setProperty('--rows', rows.length);
  const summary = [];
  const buttons = [];
  rows.forEach((row, r) => {
    const line = el('div', 'board-row');
    if (interactive) line.setAttribute('role', 'row');
    cols.forEach((col, c) => {
      const flat = key(col, row);
      const [x, y] = flat.split('|');
      const k = layer === '' ? flat : cellKey([x, y, layer]);
      const content = cells.get(flat);
      const look = content === undefined ? { text: '', label: 'empty', blank: true } : symbolLook(content, palette);
      const cell = el(interactive ? 'button' : 'div', 'cell');
      if (interactive) {
        cell.type = 'button';
        cell.setAttribute('role', 'gridcell');
        cell.tabIndex = -1;
        buttons.push(cell);
      }
      cell.dataset.cell = k;
      cell.classList.add((r + c) % 2 === 0 ? 'light' : 'dark');
      if (look.disc) {
        const disc = el('span', 'disc');
        disc.style.background = look.disc;
        cell.append(disc);
      } else if (look.text) {
        cell.append(el('span', look.piece ? 'piece' : 'symbol', look.text));
        if (look.tint) cell.style.setProperty('--tint', look.tint);
        if (look.tint) cell.classList.add('tinted');
      }
      const target = targets?.get(k);
      const at = [x, y, layer].filter((v) => v !== '').join(' ');
      const description = `${board.fluent} ${at}: ${look.label}${target ? `, ${target}` : ''}`;
      cell.setAttribute('aria-label', description);
      cell.title = content === undefined ? at : `(${board.fluent} ${at} ${content})`;
      if (!look.blank) summary.push(`${at} ${content}`);
      if (target) cell.classList.add('target');
      if (marked?.has(k)) cell.classList.add('marked');
      if (selected === k) cell.classList.add('selected');
      if (overlay) drawOverlay(cell, k, overlay);
      if (interactive) {
        cell.disabled = false;
        cell.setAttribute('aria-disabled', String(!target));
        cell.addEventListener('click', () => target && onCell(k));
      }
      line.append(cell);
    });
    grid.append(line);
  });
  if (!interactive) {
    grid.setAttribute('aria-label', `board ${board.fluent}${layer ? ` ${layer}` : ''}: ${summary.join(', ') || 'empty'}`);
  } else if (buttons.length) {
    // Roving focus: one cell in the tab order, arrow keys move.
    const first = buttons.find((b) => b.classList.contains('target')) ?? buttons[0];
    first.tabIndex = 0;
    grid.addEventListener('keydown', (event) => {
      const i = buttons.indexOf(document.activeElement ?? event.target);
      if (i < 0) return;
      const n = cols.length;
      const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -n, ArrowDown: n, Home: -(i % n), End: n - 1 - (i % n) };
      if (!(event.key in moves)) return;
      const j = i + moves[event.key];
      if (j < 0 || j >= buttons.length) return;
      event.preventDefault();
      buttons[i].tabIndex = -1;
      buttons[j].tabIndex = 0;
      buttons[j].focus();
    });
  }
  return grid;
}

/** An explanation's marks on one cell (see overlay.js). */
function drawOverlay(cell, k, overlay) {
  const heat = overlay.heat.get(k);
  if (heat) {
    cell.classList.add('heat');
    cell.style.setProperty('--heat', heat.color);
    cell.dataset.heat = JSON.stringify(heat.entries);
    cell.append(el('span', 'heat-value', heatLabel(heat)));
    cell.title = `${cell.title}\n${heatTitle(heat)}`;
    cell.setAttribute('aria-label', `${cell.getAttribute('aria-label')}, ${heatTitle(heat).replace(/\n/g, '; ')}`);
  }
  const steps = overlay.plan.get(k);
  if (steps) {
    const mark = el('span', 'plan-mark', steps.join(','));
    mark.title = `step ${steps.join(', ')} of the relaxed plan of ${overlay.planMove}`;
    cell.append(mark);
    cell.dataset.plan = steps.join(',');
  }
  const solved = overlay.solved?.get(k);
  if (solved) {
    cell.classList.add('solved', `solved-${solved.outcome}`);
    cell.dataset.solved = solved.outcome;
    cell.dataset.solvedMoves = JSON.stringify(solved.entries.map((m) => [m.move, m.outcome ?? null, m.value?.movesToEnd ?? null]));
    cell.append(el('span', 'solved-mark', solved.label));
    cell.title = `${cell.title}\nperfect play:\n${solved.title}`;
    cell.setAttribute('aria-label', `${cell.getAttribute('aria-label')}, perfect play: ${solved.title.replace(/\n/g, '; ')}`);
  }
  if (overlay.chosen.has(k)) cell.classList.add('chosen');
  if (overlay.runnerUp.has(k)) cell.classList.add('runner-up');
}

/** The fluents as a readable list (each one text). */
export function renderFluentList(fluents, className = 'fluents') {
  const list = el('ul', className);
  for (const f of fluents) list.append(el('li', undefined, f));
  return list;
}
