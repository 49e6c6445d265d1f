// An explanation drawn on the board: the Why? values as a heat map on the
// cells each move changes, a move's relaxed plan as numbered marks, and the
// chosen move and its runner-up outlined. Every cell comes from Rust (the
// explanation's `cells` per move and `planCells` per plan action, computed
// by `explain`, crate/play/src/search/explain_board.rs); this module only turns
// values into colours and keys, for the HTML board (board.js), the tree's
// node boards (tree/render.js) and their SVG export.

import { cellKey } from './board.js';

/** A value as the Why? table writes it. */
export const formatValue = (v) => (v === null || v === undefined ? '∞' : String(Math.round(v * 1000) / 1000));

/** Heat colour of a level in [0, 1] (0 worst: red, 1 best: green), light enough for dark text. */
export function heatColor(level) {
  const hue = Math.round(Math.max(0, Math.min(1, level)) * 120);
  return `hsl(${hue}, 72%, 72%)`;
}

/**
 * The relaxed plan drawn for a move: its plan to the best goal value it can
 * still reach (the highest goal with a finite h_FF), or null.
 */
export function planOf(move) {
  const reachable = (move?.goals ?? []).filter((g) => g.hFf !== null && g.hFf !== undefined && g.plan.length);
  if (!reachable.length) return null;
  return reachable.reduce((a, b) => (b.goal > a.goal ? b : a));
}

/**
 * The overlay of an explanation `e` (the result of `explain`): `{heat: Map
 * cell key → {level, color, entries: [[move, value]]}, plan: Map key →
 * [step numbers], planMove, planGoal, chosen: Set keys, runnerUp: Set keys}`.
 * `distance`: lower values are better (h_FF, h_add, h_max). `planMove`: the
 * move whose plan is drawn (default: the chosen move).
 */
export function overlayOf(e, { distance = false, planMove } = {}) {
  const heat = new Map();
  const values = e.moves.map((m) => m.value).filter((v) => v !== null && v !== undefined);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const level = (v) => {
    if (v === null || v === undefined) return 0;
    if (hi === lo) return 0.5;
    const t = (v - lo) / (hi - lo);
    return distance ? 1 - t : t;
  };
  for (const m of e.moves) {
    for (const c of m.cells ?? []) {
      const k = cellKey(c);
      const cell = heat.get(k) ?? { entries: [], level: -1 };
      cell.entries.push([m.move, m.value]);
      // A cell several moves change shows the best of them.
      cell.level = Math.max(cell.level, level(m.value));
      heat.set(k, cell);
    }
  }
  for (const cell of heat.values()) {
    cell.color = heatColor(cell.level);
    cell.entries.sort((a, b) => level(b[1]) - level(a[1]));
  }
  const keys = (mv) => new Set((e.moves.find((m) => m.move === mv)?.cells ?? []).map(cellKey));
  const shown = planMove ?? e.chosen ?? null;
  const goal = planOf(e.moves.find((m) => m.move === shown));
  const plan = new Map();
  (goal?.planCells ?? []).forEach((cells, i) => {
    for (const c of cells) {
      const k = cellKey(c);
      plan.set(k, [...(plan.get(k) ?? []), i + 1]);
    }
  });
  return { heat, plan, planMove: goal ? shown : null, planGoal: goal, chosen: keys(e.chosen), runnerUp: keys(e.runnerUp) };
}

/** The hover text of a heat cell: each move that changes it and its value. */
export function heatTitle(cell) {
  return cell.entries.map(([mv, v]) => `${mv}: ${formatValue(v)}`).join('\n');
}

/** The value written on a heat cell: the best of its moves' (entries are sorted best first). */
export function heatLabel(cell) {
  return cell.entries.length === 1 ? formatValue(cell.entries[0][1]) : `${formatValue(cell.entries[0][1])}…`;
}
