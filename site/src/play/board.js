// Boards drawn from the state, for any game. Which fluent is a board, its
// coordinates and the cells of each state come from Rust (the structure,
// crate/play/src/structure, and `boardCells` in crate/play/src/structure/board.rs,
// sent by the engine worker with each state as `board`: {fluent, size, xs,
// ys, zs, cells: [{x, y, z, content}], rest, geometry, shear, drawings});
// this module only draws the grid (one per value of a third coordinate,
// side by side; a 1-D board is one row; a hex board's rows shifted by
// `shear` cells into a rhombus of hexagons; a `lines` board's points
// joined by its `links`) and places each content's
// drawing, the SVG that Rust chose for it (crate/src/structure/pieces.rs).
// Nothing here is specific to a game: no per-game stylesheet, no per-game
// code, no piece names. An explanation's
// overlay (overlay.js: heat map, numbered plan marks, the chosen move and
// its runner-up) and the Perfect-play marks (perfect.js) are drawn on the
// cells they name.

import { heatLabel, heatTitle } from './overlay.js';

/** The drawing of a content on a board (Rust's `drawings`: boardCells lists one for every content; the rest is a guard). */
export function drawingOf(board, content) {
  const found = board.drawings?.find((d) => d.content === content);
  return found ?? { content, kind: 'token', label: content.slice(0, 2), svg: '' };
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const parsed = new Map();

/** A drawing's SVG element (a 100 × 100 view box), parsed once per drawing. */
export function drawingSvg(drawing) {
  let svg = parsed.get(drawing.svg);
  if (!svg) {
    const text = `<svg xmlns="${SVG_NS}" viewBox="0 0 100 100">${drawing.svg}</svg>`;
    svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    svg.setAttribute('class', 'drawing');
    svg.setAttribute('aria-hidden', 'true');
    parsed.set(drawing.svg, svg);
  }
  const node = document.importNode(svg, true);
  node.dataset.kind = drawing.kind;
  node.dataset.content = drawing.content;
  if (drawing.owner !== undefined && drawing.owner !== null) node.dataset.owner = drawing.owner;
  return node;
}

/** Each row's shift in cells on a hex board (rows listed from the top, `rows` as gridAxes gives them), else 0. */
export function rowShifts(board, rows) {
  if (board.geometry !== 'hex') return rows.map(() => 0);
  const axis = board.ys.includes(rows[0]) ? board.ys : board.xs;
  const raw = rows.map((row) => board.shear * axis.indexOf(row));
  const least = Math.min(0, ...raw);
  return raw.map((s) => s - least);
}

/** A step's sign: -1, 0 or 1. */
const sign = (n) => (n > 0) - (n < 0);

/**
 * On a `lines` board (Rust's `links`, structure/linegrid.rs): the points
 * (Set of "x|y") and each cell's half-lines in the view, Map "x|y" → Set of
 * 'n', 'e', 's', 'w' (a line passes through the cells between its points).
 */
export function linkDirections(board, cols, rows, key) {
  const where = new Map();
  for (const [r, row] of rows.entries()) {
    for (const [c, col] of cols.entries()) where.set(key(col, row), [r, c]);
  }
  const dirs = new Map();
  const points = new Set();
  const add = (r, c, d) => {
    const k = key(cols[c], rows[r]);
    if (!dirs.has(k)) dirs.set(k, new Set());
    dirs.get(k).add(d);
  };
  const name = (dr, dc) => (dr > 0 ? 's' : dr < 0 ? 'n' : dc > 0 ? 'e' : 'w');
  for (const [x, y, u, v] of board.links ?? []) {
    const [a, b] = [where.get(`${x}|${y}`), where.get(`${u}|${v}`)];
    if (!a || !b) continue;
    points.add(`${x}|${y}`).add(`${u}|${v}`);
    const [dr, dc] = [sign(b[0] - a[0]), sign(b[1] - a[1])];
    for (let [r, c] = a; r !== b[0] || c !== b[1]; r += dr, c += dc) {
      add(r, c, name(dr, dc));
      add(r + dr, c + dc, name(-dr, -dc));
    }
  }
  return { points, dirs };
}

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
 * content}): the layers of a 3-D board side by side, as the full view. A
 * ring or lattice board also has `places`: {across, down, at(c)} with
 * column c's centre in cells from the top left, as the full view's.
 */
export function flatBoard(board) {
  const zs = layers(board);
  const cols = zs.flatMap((z) => board.xs.map((x) => (z ? `${x}@${z}` : x)));
  const cells = new Map(board.cells.map((c) => [`${c.z ? `${c.x}@${c.z}` : c.x}|${c.y}`, c.content]));
  return { cols, rows: [...board.ys].reverse(), cells, places: placesOf(board) };
}

/** A ring's or lattice's places in cells ({across, down, at(c) → [x, y]}), else null. */
function placesOf(board) {
  const layout = board.geometry === 'ring' ? ringLayout(board.xs.length) : board.geometry === 'lattice' && board.places?.length === board.xs.length ? latticeLayout(board) : null;
  if (!layout) return null;
  const cells = (pct, of) => (Number.parseFloat(pct) / 100) * of;
  return {
    across: layout.across,
    down: layout.down,
    at: (c) => {
      const { left, top } = layout.at(c);
      return [cells(left, layout.across), cells(top, layout.down)];
    },
  };
}

/** How a content is shown: {label, blank, drawing}. */
export function symbolLook(content, board) {
  const drawing = drawingOf(board, content);
  const blank = drawing.kind === 'blank';
  return { label: blank ? 'empty' : content, blank, drawing };
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
function renderGrid(board, cells, { orientation, targets, onCell, marked, selected, small = false, layer = '', overlay = null } = {}) {
  const { cols, rows, key } = gridAxes(board, orientation);
  const interactive = Boolean(onCell);
  const hex = board.geometry === 'hex';
  // Places round a circle (structure/ring.rs), in the ring's order, or at
  // the points of a lattice (structure/lattice.rs: Rust's `places`).
  const ring = board.geometry === 'ring' ? ringLayout(cols.length) : null;
  const lattice = board.geometry === 'lattice' && board.places?.length === board.xs.length ? latticeLayout(board) : null;
  const placed = ring ?? lattice;
  // Points joined by lines (nine men's morris): each cell's half-lines and the points' dots.
  const lines = board.geometry === 'lines' ? linkDirections(board, cols, rows, key) : null;
  // A shape Rust named (structure/shapes.rs): pegs, mancala, stacks or dots, drawn by the stylesheet.
  const shape = board.shape && board.shape !== 'grid' ? board.shape : '';
  const checkered = !hex && !lines && !placed && !shape && cols.length >= 4 && rows.length >= 4;
  const grid = el('div', `board${small ? ' board-small' : ''}${checkered ? ' checkered' : ''}${hex ? ' hex' : ''}${lines ? ' lines' : ''}${ring ? ' ring' : ''}${lattice ? ' lattice' : ''}${shape ? ` shape-${shape}` : ''}`);
  const stores = new Set((board.stores ?? []).map(([x, y]) => `${x}|${y}`));
  grid.setAttribute('role', interactive ? 'grid' : 'img');
  const shifts = rowShifts(board, rows);
  grid.style.setProperty('--cols', placed ? placed.across : cols.length + Math.max(...shifts));
  grid.style.setProperty('--rows', placed ? placed.down : rows.length);
  if (placed) {
    grid.style.setProperty('--across', placed.across);
    grid.style.setProperty('--down', placed.down);
  }
  if (ring) grid.style.setProperty('--inset', `${ring.inset}%`);
  const summary = [];
  const buttons = [];
  rows.forEach((row, r) => {
    const line = el('div', 'board-row');
    if (interactive) line.setAttribute('role', 'row');
    if (hex) line.style.setProperty('--shift', shifts[r]);
    cols.forEach((col, c) => {
      const flat = key(col, row);
      const [x, y] = flat.split('|');
      const k = layer === '' ? flat : cellKey([x, y, layer]);
      const content = cells.get(flat);
      const look = content === undefined ? { label: 'empty', blank: true } : symbolLook(content, board);
      const cell = el(interactive ? 'button' : 'div', 'cell');
      if (interactive) {
        cell.type = 'button';
        cell.setAttribute('role', 'gridcell');
        cell.tabIndex = -1;
        buttons.push(cell);
      }
      cell.dataset.cell = k;
      if (placed) Object.assign(cell.style, placed.at(board.xs.indexOf(col)));
      cell.classList.add((r + c) % 2 === 0 ? 'light' : 'dark');
      if (shape === 'mancala') mancalaCell(cell, stores.has(flat), content === undefined, r === 0 || cells.has(key(col, rows[r - 1])));
      if (lines) lineCell(cell, lines.points.has(flat), lines.dirs.get(flat));
      const dots = shape === 'dots' ? dotsCell(cell, c, r, look) : '';
      if (!look.blank && dots !== 'across' && dots !== 'down') cell.append(drawingSvg(look.drawing));
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

/**
 * Where the places of a ring of `n` lie, as percentages of a square box
 * `across` cells wide: the first at the top, then clockwise, a quarter of
 * a cell apart along the circle (as Rust's `boardsvg::ring_point`).
 */
function ringLayout(n) {
  const radius = Math.max(1, (1.25 * n) / (2 * Math.PI));
  const across = 2 * radius + 1.2;
  const pct = (v) => `${((v / across) * 100).toFixed(2)}%`;
  return {
    across,
    down: across,
    inset: ((0.6 / across) * 100).toFixed(2),
    at: (i) => {
      const a = (2 * Math.PI * i) / n;
      return { left: pct(across / 2 + radius * Math.sin(a)), top: pct(across / 2 - radius * Math.cos(a)) };
    },
  };
}

/**
 * Where the places of a lattice board lie (Rust's `places`, in cells from
 * the top left), as percentages of a box with 0.6 cells round them (as
 * Rust's `boardsvg::lattice_svg`).
 */
function latticeLayout(board) {
  const far = (i) => Math.max(0, ...board.places.map((p) => p[i]));
  const across = far(0) + 1.2;
  const down = far(1) + 1.2;
  const pct = (v, of) => `${(((v + 0.6) / of) * 100).toFixed(2)}%`;
  return { across, down, at: (i) => ({ left: pct(board.places[i][0], across), top: pct(board.places[i][1], down) }) };
}

/**
 * A cell of a mancala board: a store reaches over the empty cell above
 * (when that one is empty) or below it; an empty cell is no pit.
 */
function mancalaCell(cell, store, empty, aboveTaken) {
  if (store) cell.classList.add('store', aboveTaken ? 'store-down' : 'store-up');
  else if (empty) cell.classList.add('void');
}

/** A cell of a `lines` board: its half-lines (spans the stylesheet draws) and, on a point, a dot. */
function lineCell(cell, point, dirs = new Set()) {
  if (point) cell.classList.add('point');
  for (const d of dirs) cell.append(el('span', `line line-${d}`));
}

/**
 * A cell of a dots board (Dots and Boxes, structure/shapes.rs) by its
 * places: a dot (both even), a line across or down between two dots (drawn
 * when its content is not blank) or a box (claimed when not blank, tinted
 * in the owner's colour). Returns the kind.
 */
function dotsCell(cell, c, r, look) {
  const kind = c % 2 === 0 ? (r % 2 === 0 ? 'dot' : 'down') : r % 2 === 0 ? 'across' : 'box';
  cell.classList.add(kind);
  if (!look.blank) {
    cell.classList.add(kind === 'box' ? 'claimed' : 'drawn');
    cell.style.setProperty('--owner', look.drawing.colour);
  }
  return kind;
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
