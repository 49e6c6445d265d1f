// Drawing a search tree at one step: on a canvas (zoom, pan, only the
// nodes in view, less detail when zoomed out, so trees of 10,000+ nodes
// stay smooth) and as SVG (export). Both use the same look, computed by
// `look()` from the model and the step.

import { fmt, INF, nodeAt } from './model.js';

export const SLOT = 58; // world units per layout unit (x)
export const LEVEL = 100; // world units per depth (y)
export const R = 19; // node radius
const PAD = 40;

export const COLORS = {
  ink: '#1d2330',
  muted: '#5d6677',
  ghost: '#a3abb9',
  ghostText: '#5d6577',
  prunedFill: '#e6e8ec',
  prunedStroke: '#b3b9c4',
  prunedText: '#555d6e',
  active: '#2456c7',
  activeFill: '#e9f0fe',
  doneFill: '#ffffff',
  cut: '#b3261e',
  pv: '#c2410c',
  pvFill: '#fff1e6',
  max: '#ffffff',
  edge: '#8f98a8',
  window: '#1f4fb0',
  select: '#111827',
  // The solved value (Perfect play) beside the search's.
  solved: '#6d28d9',
  // GDL-II: nodes the searching role cannot tell apart.
  infoSet: '#0f766e',
};

/** Everything needed to draw node i at step s. */
export function look(model, i, s, { current = -1, showPv = false } = {}) {
  const n = model.nodes[i];
  const st = nodeAt(model, n, s);
  const pv = showPv && model.pv.has(i);
  let stroke = COLORS.ghost;
  let fill = '#ffffff';
  let text = COLORS.ghostText;
  let width = 1.2;
  let dash = true;
  let value = '';
  if (st.pruned) {
    stroke = COLORS.prunedStroke;
    fill = COLORS.prunedFill;
    text = COLORS.prunedText;
    dash = true;
  } else if (st.visited) {
    dash = false;
    stroke = st.active ? COLORS.active : COLORS.ink;
    fill = st.active ? COLORS.activeFill : COLORS.doneFill;
    text = COLORS.ink;
    width = st.active ? 2.2 : 1.5;
  }
  if (st.value !== null) value = fmt(st.value);
  else if (st.partial !== null) value = `${n.kind === 'min' ? '≤' : '≥'}${fmt(st.partial)}`;
  else if (n.staticValue !== null && n.kind === 'leaf') value = fmt(n.staticValue);
  if (st.cut) stroke = COLORS.cut;
  if (pv) {
    stroke = COLORS.pv;
    fill = COLORS.pvFill;
    width = 3;
  }
  if (i === current) width = 3.5;
  let bound = '';
  if (st.cut && n.cutoff) bound = `${n.kind === 'max' ? '≥' : '≤'}${fmt(n.cutoff.value)}`;
  const windowText = st.active && n.windowed && n.kind !== 'leaf' ? `(${fmt(st.alpha)}, ${fmt(st.beta)})` : '';
  return { st, stroke, fill, text, width, dash, value, bound, windowText, pv, kind: n.kind, solved: solvedLabel(model, n) };
}

/**
 * The solved value of a node's state for the searching role, "✓50"
 * (model.solved: the Perfect-play solution's values of the tree's states,
 * from Rust), or ''.
 */
export function solvedLabel(model, n) {
  const v = model.solved?.[n.state];
  return v && model.solvedRole >= 0 ? `✓${v.goals[model.solvedRole]}` : '';
}

/** Whether the edge into node i is on the principal variation. */
/**
 * GDL-II: the dashed links of the information sets, between neighbours
 * of one set in drawing order (nodes of one ply share a row): [a, b] positions.
 */
function infoSetLinks(model, layout) {
  const links = [];
  for (const set of model.infoSets ?? []) {
    const shown = set.filter((i) => layout.visible[i]).map((i) => pos(layout, model, i)).sort((a, b) => a.x - b.x);
    for (let k = 1; k < shown.length; k++) links.push([shown[k - 1], shown[k]]);
  }
  return links;
}

/** An information set's link from node position a to b: an arc over the row, higher the wider it spans (so that interleaved sets stay apart). */
function infoSetArc(a, b) {
  const rise = R * 0.6 + Math.abs(b.x - a.x) * 0.18;
  return { from: { x: a.x, y: a.y - R }, via: { x: (a.x + b.x) / 2, y: Math.min(a.y, b.y) - R - rise * 2 }, to: { x: b.x, y: b.y - R } };
}

function pvEdge(model, i, showPv) {
  const n = model.nodes[i];
  return showPv && model.pv.has(i) && n.parent >= 0 && model.pv.has(n.parent);
}

function shapePath(ctx, kind, x, y, r) {
  ctx.beginPath();
  if (kind === 'max') {
    ctx.moveTo(x, y - r * 1.05);
    ctx.lineTo(x + r * 1.15, y + r * 0.8);
    ctx.lineTo(x - r * 1.15, y + r * 0.8);
    ctx.closePath();
  } else if (kind === 'min') {
    ctx.moveTo(x, y + r * 1.05);
    ctx.lineTo(x + r * 1.15, y - r * 0.8);
    ctx.lineTo(x - r * 1.15, y - r * 0.8);
    ctx.closePath();
  } else if (kind === 'chance') {
    ctx.arc(x, y, r * 1.05, 0, Math.PI * 2);
  } else if (kind === 'forced') {
    ctx.arc(x, y, r * 0.85, 0, Math.PI * 2);
  } else if (kind === 'pruned') {
    ctx.arc(x, y, r * 0.6, 0, Math.PI * 2);
  } else {
    const s = r * 0.85;
    ctx.rect(x - s, y - s, 2 * s, 2 * s);
  }
}

/** SVG path data of a node's shape. */
function shapeSvg(kind, x, y, r) {
  const f = (v) => Math.round(v * 10) / 10;
  if (kind === 'max') return `<path d="M${f(x)} ${f(y - r * 1.05)}L${f(x + r * 1.15)} ${f(y + r * 0.8)}L${f(x - r * 1.15)} ${f(y + r * 0.8)}Z"`;
  if (kind === 'min') return `<path d="M${f(x)} ${f(y + r * 1.05)}L${f(x + r * 1.15)} ${f(y - r * 0.8)}L${f(x - r * 1.15)} ${f(y - r * 0.8)}Z"`;
  if (kind === 'chance') return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 1.05)}"`;
  if (kind === 'forced') return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.85)}"`;
  if (kind === 'pruned') return `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.6)}"`;
  const s = r * 0.85;
  return `<rect x="${f(x - s)}" y="${f(y - s)}" width="${f(2 * s)}" height="${f(2 * s)}"`;
}

/** World position of node i. */
export function pos(layout, model, i) {
  return { x: PAD + layout.x[i] * SLOT, y: PAD + (model.nodes[i].depth - model.nodes[model.root].depth) * LEVEL };
}

export function worldSize(layout) {
  return { w: PAD * 2 + Math.max(0, layout.width - 1) * SLOT, h: PAD * 2 + Math.max(0, layout.height - 1) * LEVEL + 30 };
}

/** Truncates a label to fit `max` pixels (measured with ctx). */
function fit(ctx, text, max) {
  if (ctx.measureText(text).width <= max) return text;
  let t = text;
  while (t.length > 1 && ctx.measureText(`${t}…`).width > max) t = t.slice(0, -1);
  return `${t}…`;
}

/**
 * Draws the nodes of `layout` in view. `view`: {k, tx, ty} (screen =
 * world·k + t), `w`, `h` the canvas size in CSS pixels.
 */
/**
 * The cells of a small board inside node (x, y), for the canvas and the
 * SVG alike: `board` is {cols, rows, cells, overlay?} (cells: Map
 * "col|row" → content text, split in Rust: board.js flatBoard; overlay: an
 * explanation's marks by the same keys, play/overlay.js; look: a
 * content's drawing, board.js symbolLook). Each cell: {x, y, size, text,
 * disc, heat, plan, chosen, runnerUp}: round pieces as discs of their
 * colour, chess pieces, marks and numbers as their label.
 */
/** Drawings shown as a disc of their colour on a small board. */
const ROUND = new Set(['disc', 'man', 'king', 'token']);

function miniCells(board, x, y) {
  // A ring or lattice (board.places) puts each place at its point; a grid is cols × rows.
  const p = board.places;
  const across = p ? p.across : board.cols.length;
  const down = p ? p.down : board.rows.length;
  const cell = (R * 1.45) / Math.max(across, down);
  const left = x - (cell * across) / 2;
  const top = y - (cell * down) / 2;
  const o = board.overlay;
  const out = [];
  board.rows.forEach((row, r) => {
    board.cols.forEach((col, c) => {
      const k = `${col}|${row}`;
      const content = board.cells.get(k);
      const look = content === undefined || !board.look ? null : board.look(content);
      const round = look && ROUND.has(look.drawing.kind);
      const [px, py] = p ? p.at(c).map((v) => v - 0.5) : [c, r];
      out.push({
        x: left + px * cell,
        y: top + py * cell,
        size: cell,
        hole: Boolean(p),
        text: !look || look.blank || round ? '' : (look.drawing.label || '■').slice(0, 2),
        disc: round ? look.drawing.colour : null,
        heat: o?.heat.get(k)?.color ?? null,
        plan: o?.plan.get(k)?.join(',') ?? '',
        chosen: Boolean(o?.chosen.has(k)),
        runnerUp: Boolean(o?.runnerUp.has(k)),
      });
    });
  });
  return { cells: out, left, top, w: cell * across, h: cell * down };
}

/** Colours of an explanation on a small board (as the play view's, overlay.js). */
const MARKS = { plan: '#5b21b6', chosen: '#15803d' };

/** A small board inside node (x, y) on the canvas (see miniCells). */
function drawMiniBoard(ctx, board, x, y) {
  const m = miniCells(board, x, y);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(m.left, m.top, m.w, m.h);
  for (const c of m.cells) {
    if (c.heat) {
      ctx.fillStyle = c.heat;
      ctx.fillRect(c.x, c.y, c.size, c.size);
    }
    ctx.strokeStyle = COLORS.edge;
    ctx.lineWidth = 0.4;
    if (c.hole) {
      ctx.beginPath();
      ctx.arc(c.x + c.size / 2, c.y + c.size / 2, c.size * 0.45, 0, 2 * Math.PI);
      ctx.stroke();
    } else ctx.strokeRect(c.x, c.y, c.size, c.size);
    if (c.chosen || c.runnerUp) {
      ctx.strokeStyle = MARKS.chosen;
      ctx.lineWidth = Math.max(0.6, c.size * (c.chosen ? 0.14 : 0.08));
      if (c.runnerUp && !c.chosen) ctx.setLineDash([c.size * 0.2, c.size * 0.15]);
      ctx.strokeRect(c.x + c.size * 0.1, c.y + c.size * 0.1, c.size * 0.8, c.size * 0.8);
      ctx.setLineDash([]);
    }
    if (c.disc) {
      ctx.beginPath();
      ctx.arc(c.x + c.size / 2, c.y + c.size / 2, c.size * 0.38, 0, 2 * Math.PI);
      ctx.fillStyle = c.disc;
      ctx.fill();
      ctx.strokeStyle = COLORS.ink;
      ctx.lineWidth = Math.max(0.3, c.size * 0.06);
      ctx.stroke();
    }
    if (c.text) {
      ctx.font = `600 ${Math.max(2, c.size * (c.text.length > 1 ? 0.5 : 0.8))}px system-ui, sans-serif`;
      ctx.fillStyle = COLORS.ink;
      ctx.fillText(c.text, c.x + c.size / 2, c.y + c.size / 2 + c.size * 0.3);
    }
    if (c.plan) {
      ctx.font = `700 ${Math.max(2, c.size * 0.45)}px system-ui, sans-serif`;
      ctx.fillStyle = MARKS.plan;
      ctx.fillText(c.plan, c.x + c.size * 0.75, c.y + c.size * 0.4);
    }
  }
}

/** The same small board as SVG elements. */
function miniBoardSvg(board, x, y) {
  const m = miniCells(board, x, y);
  const out = [`<rect x="${m.left}" y="${m.top}" width="${m.w}" height="${m.h}" fill="#ffffff"/>`];
  for (const c of m.cells) {
    if (c.hole) out.push(`<circle cx="${c.x + c.size / 2}" cy="${c.y + c.size / 2}" r="${c.size * 0.45}" fill="${c.heat ?? 'none'}" stroke="${COLORS.edge}" stroke-width="0.4"/>`);
    else out.push(`<rect x="${c.x}" y="${c.y}" width="${c.size}" height="${c.size}" fill="${c.heat ?? 'none'}" stroke="${COLORS.edge}" stroke-width="0.4"/>`);
    if (c.chosen || c.runnerUp) {
      const dash = c.runnerUp && !c.chosen ? ` stroke-dasharray="${c.size * 0.2} ${c.size * 0.15}"` : '';
      out.push(`<rect x="${c.x + c.size * 0.1}" y="${c.y + c.size * 0.1}" width="${c.size * 0.8}" height="${c.size * 0.8}" fill="none" stroke="${MARKS.chosen}" stroke-width="${Math.max(0.6, c.size * (c.chosen ? 0.14 : 0.08))}"${dash}/>`);
    }
    if (c.disc) out.push(`<circle cx="${c.x + c.size / 2}" cy="${c.y + c.size / 2}" r="${c.size * 0.38}" fill="${c.disc}" stroke="${COLORS.ink}" stroke-width="${Math.max(0.3, c.size * 0.06)}"/>`);
    if (c.text) out.push(`<text x="${c.x + c.size / 2}" y="${c.y + c.size / 2 + c.size * 0.3}" font-size="${Math.max(2, c.size * (c.text.length > 1 ? 0.5 : 0.8))}" font-weight="600" text-anchor="middle" fill="${COLORS.ink}">${esc(c.text)}</text>`);
    if (c.plan) out.push(`<text class="plan-mark" x="${c.x + c.size * 0.75}" y="${c.y + c.size * 0.4}" font-size="${Math.max(2, c.size * 0.45)}" font-weight="700" text-anchor="middle" fill="${MARKS.plan}">${esc(c.plan)}</text>`);
  }
  return out.join('');
}

/** Draws the tree at step s; returns how many nodes show a board. */
export function drawTree(ctx, model, layout, s, view, { current = -1, selected = -1, showPv = false, collapsed = new Set(), boardOf = null, w, h }) {
  const { k, tx, ty } = view;
  ctx.save();
  ctx.clearRect(0, 0, w, h);
  ctx.translate(tx, ty);
  ctx.scale(k, k);
  const x0 = -tx / k - SLOT;
  const x1 = (w - tx) / k + SLOT;
  const y0 = -ty / k - LEVEL;
  const y1 = (h - ty) / k + LEVEL;
  const detail = k * R; // node radius on screen
  let boards = 0;
  const rows = layout.rows;
  const firstRow = Math.max(0, Math.floor((y0 - PAD) / LEVEL));
  const lastRow = Math.min(rows.length - 1, Math.ceil((y1 - PAD) / LEVEL));
  const xs = layout.x;
  const inView = [];
  for (let d = firstRow; d <= lastRow; d++) {
    const row = rows[d];
    if (!row) continue;
    // Binary search the first node with world x ≥ x0 (children's edges reach up, so widen by one level's spread).
    let lo = 0;
    let hi = row.length;
    const wx0 = (x0 - PAD) / SLOT;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[row[mid]] < wx0) lo = mid + 1;
      else hi = mid;
    }
    const wx1 = (x1 - PAD) / SLOT;
    for (let j = lo; j < row.length && xs[row[j]] <= wx1; j++) inView.push(row[j]);
  }
  const looks = new Map();
  const getLook = (i) => {
    let l = looks.get(i);
    if (!l) {
      l = look(model, i, s, { current, showPv });
      looks.set(i, l);
    }
    return l;
  };

  // Edges: from each node in view to its parent (and to children of nodes in view whose own row is out of view).
  ctx.lineCap = 'round';
  const edgeSet = new Set(inView);
  for (const i of inView) {
    const n = model.nodes[i];
    if (!collapsed.has(i)) for (const c of n.children) if (layout.visible[c]) edgeSet.add(c);
  }
  const labelEdges = detail >= 7 && k * SLOT >= 34;
  ctx.font = '11px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const labels = [];
  for (const i of edgeSet) {
    const n = model.nodes[i];
    if (n.parent < 0 || !layout.visible[n.parent]) continue;
    const a = pos(layout, model, n.parent);
    const b = pos(layout, model, i);
    const l = getLook(i);
    const onPv = pvEdge(model, i, showPv);
    ctx.strokeStyle = onPv ? COLORS.pv : l.st.pruned ? COLORS.prunedStroke : l.st.visited ? (l.st.active ? COLORS.active : COLORS.edge) : COLORS.ghost;
    ctx.lineWidth = onPv ? 4 / Math.max(k, 0.25) ** 0.3 : l.st.active ? 2 : 1.2;
    ctx.setLineDash(l.st.visited || onPv ? [] : [5, 4]);
    ctx.beginPath();
    ctx.moveTo(a.x, a.y + R * 0.9);
    ctx.lineTo(b.x, b.y - R * 0.9);
    ctx.stroke();
    if (labelEdges && n.label) labels.push([i, a, b, l, onPv]);
  }
  ctx.setLineDash([]);
  if (labels.length) {
    for (const [i, a, b, l, onPv] of labels) {
      const mx = (a.x + b.x) / 2;
      const my = (a.y + b.y) / 2;
      const n = model.nodes[i];
      const siblings = model.nodes[n.parent].children.length;
      const room = siblings > 1 ? Math.max(SLOT * 0.9, Math.abs(b.x - a.x) * 0.9) : SLOT * 2.5;
      const text = fit(ctx, n.label, room);
      const tw = ctx.measureText(text).width;
      ctx.fillStyle = 'rgba(255,255,255,0.92)';
      ctx.fillRect(mx - tw / 2 - 2, my - 7, tw + 4, 14);
      ctx.fillStyle = onPv ? COLORS.pv : l.st.pruned || !l.st.visited ? COLORS.prunedText : COLORS.muted;
      ctx.fillText(text, mx, my);
    }
  }

  // Information sets: a dashed line between the nodes the role cannot tell apart.
  ctx.strokeStyle = COLORS.infoSet;
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  for (const [a, b] of infoSetLinks(model, layout)) {
    const { from, via, to } = infoSetArc(a, b);
    ctx.beginPath();
    ctx.moveTo(from.x, from.y);
    ctx.quadraticCurveTo(via.x, via.y, to.x, to.y);
    ctx.stroke();
  }
  ctx.setLineDash([]);

  // Nodes.
  for (const i of inView) {
    const { x, y } = pos(layout, model, i);
    const l = getLook(i);
    if (detail < 2.5) {
      ctx.fillStyle = l.pv ? COLORS.pv : l.st.pruned ? COLORS.prunedStroke : l.st.visited ? (l.st.active ? COLORS.active : COLORS.ink) : COLORS.ghost;
      ctx.fillRect(x - R, y - R, 2 * R, 2 * R);
      continue;
    }
    shapePath(ctx, l.kind, x, y, R);
    ctx.fillStyle = l.fill;
    ctx.fill();
    ctx.setLineDash(l.dash ? [4, 3] : []);
    ctx.strokeStyle = l.stroke;
    ctx.lineWidth = l.width;
    ctx.stroke();
    ctx.setLineDash([]);
    if (i === current) {
      ctx.beginPath();
      ctx.arc(x, y, R * 1.75, 0, Math.PI * 2);
      ctx.strokeStyle = 'rgba(36, 86, 199, 0.35)';
      ctx.lineWidth = 5;
      ctx.stroke();
    }
    if (i === selected) {
      ctx.beginPath();
      ctx.arc(x, y, R * 1.5, 0, Math.PI * 2);
      ctx.setLineDash([3, 3]);
      ctx.strokeStyle = COLORS.select;
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.setLineDash([]);
    }
    // Game trees: the node's position as a small board, its value below.
    const board = detail >= 10 && boardOf ? boardOf(i) : null;
    if (board) {
      drawMiniBoard(ctx, board, x, y);
      boards++;
    }
    if (detail >= 6) {
      if (l.solved) {
        ctx.font = '600 11px system-ui, sans-serif';
        ctx.fillStyle = COLORS.solved;
        ctx.fillText(l.solved, x, y + R + (board && l.value ? 25 : 12));
      }
      if (l.value && board) {
        ctx.font = '600 12px system-ui, sans-serif';
        ctx.fillStyle = l.text === COLORS.ghostText ? l.text : COLORS.ink;
        ctx.fillText(l.value, x, y + R + 12);
      } else if (l.value) {
        ctx.font = `600 ${l.value.length > 4 ? 10 : 13}px system-ui, sans-serif`;
        ctx.fillStyle = l.text;
        ctx.fillText(l.value, x, y + (l.kind === 'max' ? 4 : l.kind === 'min' ? -4 : 0));
      }
      if (l.bound) {
        ctx.font = '600 12px system-ui, sans-serif';
        ctx.fillStyle = COLORS.cut;
        ctx.textAlign = 'left';
        ctx.fillText(`✂ ${l.bound}`, x + R * 1.3, y - R * 0.6);
        ctx.textAlign = 'center';
      }
      if (l.windowText) {
        ctx.font = '11px system-ui, sans-serif';
        ctx.fillStyle = COLORS.window;
        ctx.fillText(l.windowText, x, y + R * 2.05);
      }
      if (collapsed.has(i) && model.nodes[i].children.length) {
        ctx.font = '600 11px system-ui, sans-serif';
        ctx.fillStyle = COLORS.muted;
        ctx.fillText(`+${model.nodes[i].hiddenCount ?? ''}`, x, y + R * 2.2);
      }
    }
  }
  ctx.restore();
  return boards;
}

/** The node under world point (wx, wy), or -1. */
export function hitTest(model, layout, wx, wy) {
  const d = Math.round((wy - PAD) / LEVEL);
  const row = layout.rows[d];
  if (!row) return -1;
  const target = (wx - PAD) / SLOT;
  let lo = 0;
  let hi = row.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (layout.x[row[mid]] < target) lo = mid + 1;
    else hi = mid;
  }
  let best = -1;
  let bestDist = Infinity;
  for (const j of [lo - 1, lo, lo + 1]) {
    const i = row[j];
    if (i === undefined) continue;
    const p = pos(layout, model, i);
    const dist = Math.hypot(p.x - wx, p.y - wy);
    if (dist < bestDist) {
      bestDist = dist;
      best = i;
    }
  }
  return bestDist <= R * 1.6 ? best : -1;
}

const esc = (t) => String(t).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The whole tree (as laid out) at step s as an SVG document (text). */
export function treeSvg(model, layout, s, { current = -1, showPv = false, collapsed = new Set(), title = 'search tree', boardOf = null } = {}) {
  const { w, h } = worldSize(layout);
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(w)}" height="${Math.ceil(h)}" viewBox="0 0 ${Math.ceil(w)} ${Math.ceil(h)}" font-family="system-ui, sans-serif">`);
  out.push(`<title>${esc(title)}</title><rect width="100%" height="100%" fill="#ffffff"/>`);
  const visible = [];
  for (const row of layout.rows) for (const i of row) visible.push(i);
  for (const i of visible) {
    const n = model.nodes[i];
    if (n.parent < 0 || !layout.visible[n.parent]) continue;
    const a = pos(layout, model, n.parent);
    const b = pos(layout, model, i);
    const l = look(model, i, s, { current, showPv });
    const onPv = pvEdge(model, i, showPv);
    const stroke = onPv ? COLORS.pv : l.st.pruned ? COLORS.prunedStroke : l.st.visited ? (l.st.active ? COLORS.active : COLORS.edge) : COLORS.ghost;
    out.push(`<line x1="${a.x}" y1="${a.y + R * 0.9}" x2="${b.x}" y2="${b.y - R * 0.9}" stroke="${stroke}" stroke-width="${onPv ? 4 : 1.2}"${l.st.visited || onPv ? '' : ' stroke-dasharray="5 4"'}/>`);
    if (n.label) {
      out.push(`<text x="${(a.x + b.x) / 2}" y="${(a.y + b.y) / 2}" font-size="11" text-anchor="middle" dominant-baseline="middle" fill="${onPv ? COLORS.pv : COLORS.muted}" stroke="#fff" stroke-width="3" paint-order="stroke">${esc(n.label)}</text>`);
    }
  }
  for (const [a, b] of infoSetLinks(model, layout)) {
    const { from, via, to } = infoSetArc(a, b);
    out.push(`<path class="info-set" d="M${from.x} ${from.y}Q${via.x} ${via.y} ${to.x} ${to.y}" fill="none" stroke="${COLORS.infoSet}" stroke-width="2" stroke-dasharray="6 4"/>`);
  }
  for (const i of visible) {
    const { x, y } = pos(layout, model, i);
    const l = look(model, i, s, { current, showPv });
    out.push(`${shapeSvg(l.kind, x, y, R)} fill="${l.fill}" stroke="${l.stroke}" stroke-width="${l.width}"${l.dash ? ' stroke-dasharray="4 3"' : ''}/>`);
    // Game trees: the node's position as a small board (as on the canvas), its value below.
    const board = boardOf ? boardOf(i) : null;
    if (board) {
      out.push(miniBoardSvg(board, x, y));
      if (l.value) out.push(`<text x="${x}" y="${y + R + 12}" font-size="12" font-weight="600" text-anchor="middle" fill="${COLORS.ink}">${esc(l.value)}</text>`);
    } else if (l.value) {
      out.push(`<text x="${x}" y="${y + (l.kind === 'max' ? 4 : l.kind === 'min' ? -4 : 0)}" font-size="${l.value.length > 4 ? 10 : 13}" font-weight="600" text-anchor="middle" dominant-baseline="middle" fill="${l.text}">${esc(l.value)}</text>`);
    }
    if (l.solved) out.push(`<text x="${x}" y="${y + R + (board && l.value ? 25 : 12)}" font-size="11" font-weight="600" text-anchor="middle" fill="${COLORS.solved}">${esc(l.solved)}</text>`);
    if (l.bound) out.push(`<text x="${x + R * 1.3}" y="${y - R * 0.6}" font-size="12" font-weight="600" dominant-baseline="middle" fill="${COLORS.cut}">✂ ${esc(l.bound)}</text>`);
    if (l.windowText) out.push(`<text x="${x}" y="${y + R * 2.05}" font-size="11" text-anchor="middle" dominant-baseline="middle" fill="${COLORS.window}">${esc(l.windowText)}</text>`);
    if (collapsed.has(i) && model.nodes[i].children.length) out.push(`<text x="${x}" y="${y + R * 2.2}" font-size="11" text-anchor="middle" fill="${COLORS.muted}">+${model.nodes[i].hiddenCount ?? ''}</text>`);
  }
  out.push('</svg>');
  return out.join('\n');
}

export { INF };
