// Boards drawn from the state, for any game. Which fluent is a board, which
// arguments are its coordinates and their order come from the game's
// structure, found in Rust (crate/src/structure, `gdlkit structure`); this
// module only draws the grid, and the fluents that are not part of the
// board stay a readable list. Nothing here is specific to a game: no
// per-game stylesheet, no per-game code. Every symbol is inserted as text.

import { parseTerm, termArgs, termName, termText } from '../terms.js';

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

/**
 * The board to draw, from the game's structure (found in Rust,
 * crate/src/structure: which fluent is a board, its coordinates in order):
 * the largest board with two coordinates, as {relation, coords, contents,
 * xs, ys}; null when the game has none.
 */
export function boardFromStructure(structure) {
  const boards = (structure?.boards ?? []).filter((b) => b.coordinates.length === 2);
  if (!boards.length) return null;
  const b = boards.reduce((best, x) => (x.size[0] * x.size[1] > best.size[0] * best.size[1] ? x : best));
  return { relation: b.fluent, coords: b.coordinates, contents: b.contents, xs: b.values[0], ys: b.values[1] };
}

/** The cells of the board in one state: Map "x|y" → content text; and the other fluents. */
export function boardCells(board, fluentTexts) {
  const cells = new Map();
  const rest = [];
  for (const text of fluentTexts) {
    const term = parseTerm(text);
    const args = termArgs(term);
    if (board && termName(term) === board.relation && args.length === board.coords.length + board.contents.length) {
      const key = `${termText(args[board.coords[0]])}|${termText(args[board.coords[1]])}`;
      const content = board.contents.map((i) => termText(args[i])).join(' ');
      const prev = cells.get(key);
      cells.set(key, prev === undefined ? content : `${prev} ${content}`);
    } else {
      rest.push(text);
    }
  }
  return { cells, rest };
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
 * Renders a board. `targets` (optional) maps a cell key to a description
 * of what clicking it does; `onCell(key)` is called for clicks on targets.
 * `marked` is a set of keys to outline (a selected piece, the last move).
 * Returns the element (a grid of buttons when interactive, of divs
 * otherwise); arrow keys move between the cells of an interactive board.
 */
export function renderBoard(board, cells, { orientation, targets, onCell, marked, selected, small = false, palette = new Map() } = {}) {
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
      const k = key(col, row);
      const [x, y] = k.split('|');
      const content = cells.get(k);
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
      const description = `${board.relation} ${x} ${y}: ${look.label}${target ? `, ${target}` : ''}`;
      cell.setAttribute('aria-label', description);
      cell.title = content === undefined ? `${x} ${y}` : `(${board.relation} ${x} ${y} ${content})`;
      if (!look.blank) summary.push(`${x} ${y} ${content}`);
      if (target) cell.classList.add('target');
      if (marked?.has(k)) cell.classList.add('marked');
      if (selected === k) cell.classList.add('selected');
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
    grid.setAttribute('aria-label', `board ${board.relation}: ${summary.join(', ') || 'empty'}`);
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

/** The fluents as a readable list (each one text). */
export function renderFluentList(fluents, className = 'fluents') {
  const list = el('ul', className);
  for (const f of fluents) list.append(el('li', undefined, f));
  return list;
}
