// The play view's "Perfect play" switch: solves the game in the `solve`
// worker (the engine's solver, crate/play/src/solve, with its default time
// limit; progress shown, cancellable), or loads a solution file (`gdlkit
// solve --out`) there, and marks each legal move of the role
// to move with its solved value: win, draw or loss for that role and the
// moves to the end. Every value and outcome comes from Rust (the worker's
// `solvedPosition`, `Solution::position`); this module only turns them
// into marks on the cells the move names (Rust's `moveCells`).

import { engine } from '../engine/client.js';
import { h } from '../dom.js';
import { cellKey } from './board.js';

/** Short labels of the outcomes for the role to move (SolvedOutcome). */
const SHORT = { win: 'W', draw: 'D', loss: 'L', score: '' };

/** How good an outcome is for the role to move (a cell several moves name shows the best). */
const RANK = { win: 3, score: 2, draw: 1, loss: 0 };

/** A solved move's words: "win in 5", "draw in 9", "loss in 4", "score 50 in 3", "unknown". */
export function solvedText(m, role) {
  if (!m.value) return 'unknown';
  const n = m.value.movesToEnd;
  const what = m.outcome === 'score' ? `score ${m.value.goals[role]}` : m.outcome;
  return `${what} in ${n} move${n === 1 ? '' : 's'}`;
}

/** The mark written on a cell: "W5", "D9", "L4", "50·3" (one role's score), "?". */
export function solvedLabel(m, role) {
  if (!m.value) return '?';
  return m.outcome === 'score' ? `${m.value.goals[role]}·${m.value.movesToEnd}` : `${SHORT[m.outcome]}${m.value.movesToEnd}`;
}

/** Preference among moves for the role to move: outcome, then fastest win / slowest loss. */
function rank(m) {
  if (!m.value) return -1e9;
  const d = m.value.movesToEnd;
  return RANK[m.outcome] * 1e6 + (m.outcome === 'loss' ? d : -d);
}

/**
 * The marks of a solved position on the board: Map cell key → {outcome,
 * label, title, entries}. `cells` are the state's move cells (describe's
 * `cells`): a move is marked on its last cell (the target of a
 * from-to move), a column move on its column.
 */
export function solvedMarks(position, cells, roleName) {
  const marks = new Map();
  if (!position?.moves?.length) return marks;
  for (const m of position.moves) {
    const named = cells?.[m.move];
    if (!named?.cells?.length) continue;
    const keys = named.column ? named.cells.map(cellKey) : [cellKey(named.cells[named.cells.length - 1])];
    for (const k of keys) {
      const mark = marks.get(k) ?? { entries: [] };
      mark.entries.push(m);
      marks.set(k, mark);
    }
  }
  for (const mark of marks.values()) {
    mark.entries.sort((a, b) => rank(b) - rank(a));
    const top = mark.entries[0];
    mark.outcome = top.value ? top.outcome : 'unknown';
    mark.label = solvedLabel(top, position.role) + (mark.entries.length > 1 ? '…' : '');
    mark.title = mark.entries.map((m) => `${m.move}: ${roleName} ${solvedText(m, position.role)}`).join('\n');
  }
  return marks;
}

/** The one line a finished solve leaves: what was solved, or how much of it. */
export function summaryLine(summary, roles) {
  if (!summary.complete) {
    const why = summary.stopped ?? 'stopped';
    return `Partly solved (${why}) after ${summary.stats.states.toLocaleString('en')} states: only the values proved within them are marked, ? elsewhere.`;
  }
  const v = summary.initial;
  const start = v ? `${roles.map((r, i) => `${r} ${v.goals[i]}`).join(', ')}, ${v.movesToEnd} moves` : 'no value';
  const n = summary.stats.simultaneous;
  const both = n ? ` Where both roles choose (${n.toLocaleString('en')} states) a position has a value only at a saddle point in pure moves, and its moves are not marked.` : '';
  return `Solved (${summary.concept}): ${summary.stats.states.toLocaleString('en')} states; from the start ${start}. Marks: W win, D draw, L loss for the role to move, then moves to the end.${both}`;
}

export class PerfectPlay {
  /** `onChange()` is called when the marks to draw change (solve done, switched off). */
  constructor(onChange) {
    this.onChange = onChange;
    this.toggle = h('input', { type: 'checkbox', role: 'switch', class: 'perfect-switch', 'aria-checked': 'false', on: { change: () => this.switched() } });
    this.bar = h('progress', { 'aria-label': 'solving', hidden: true });
    this.cancelBtn = h('button', { type: 'button', class: 'danger', text: 'Cancel', hidden: true, on: { click: () => this.call?.cancel() } });
    this.line = h('span', { class: 'perfect-status', 'aria-live': 'polite' });
    this.fileInput = h('input', { type: 'file', accept: '.txt,.solution,text/plain', class: 'solution-file', hidden: true, on: { change: () => this.loadFile() } });
    this.loadBtn = h('button', { type: 'button', class: 'load-solution', text: 'Load solution…', title: 'A solution file of this game (gdlkit solve --out FILE) instead of solving here', on: { click: () => this.fileInput.click() } });
    this.root = h('div', { class: 'row perfect-play' },
      h('label', { title: 'Solve the game (every reachable position’s value under perfect play) and mark each legal move with its value' }, this.toggle, ' Perfect play'),
      this.loadBtn, this.fileInput, this.bar, this.cancelBtn, this.line);
    this.text = null;
    this.roles = [];
    /** `{text, summary}` of the last finished solve. */
    this.done = null;
    this.call = null;
    /** The solved position of the state shown: `{key, position}`. */
    this.shown = null;
  }

  get on() {
    return this.toggle.checked;
  }

  /** A game is loaded (another one: the solution is dropped). */
  setGame(text, roles) {
    if (text === this.text) return;
    this.text = text;
    this.roles = roles;
    this.done = null;
    this.shown = null;
    this.call?.cancel();
    if (this.on) this.start();
    else this.line.textContent = '';
  }

  switched() {
    this.toggle.setAttribute('aria-checked', String(this.on));
    if (this.on && !this.done) this.start();
    if (!this.on) {
      this.call?.cancel();
      this.line.textContent = '';
    } else if (this.done) this.line.textContent = summaryLine(this.done.summary, this.roles);
    this.onChange();
  }

  /** Solves the game in the `solve` worker (soft cancel: what was explored, said to be partial). */
  async start() {
    const text = this.text;
    if (!text) return;
    this.bar.hidden = this.cancelBtn.hidden = false;
    this.bar.removeAttribute('value');
    this.line.textContent = 'Solving…';
    const call = engine().solve.call('solve', { text }, {
      onProgress: (p) => {
        if (this.call === call && p) this.line.textContent = `Solving… ${Number(p.states).toLocaleString('en')} states found, ${Number(p.expanded).toLocaleString('en')} expanded${p.valued ? `, ${Number(p.valued).toLocaleString('en')} valued` : ''}`;
      },
    });
    this.call = call;
    let summary = null;
    try {
      summary = await call;
    } catch (e) {
      if (this.call !== call) return;
      summary = e.name === 'Cancelled' ? e.partial : null;
      if (!summary) this.line.textContent = `Cannot solve this game: ${e.message}`;
    }
    if (this.call !== call) return;
    this.call = null;
    this.bar.hidden = this.cancelBtn.hidden = true;
    // Switched off while solving: nothing kept (switching on solves again).
    if (summary && !this.on && !summary.complete) summary = null;
    if (summary) {
      this.done = { text, summary };
      if (this.on) this.line.textContent = summaryLine(summary, this.roles);
    } else if (this.on) {
      this.toggle.checked = false;
      this.toggle.setAttribute('aria-checked', 'false');
    }
    this.onChange();
  }

  /** Loads the chosen solution file (`gdlkit solve --out`) in the `solve` worker and switches Perfect play on with it. */
  async loadFile() {
    const file = this.fileInput.files?.[0];
    this.fileInput.value = '';
    const text = this.text;
    if (!file || !text) return;
    this.call?.cancel();
    this.call = null;
    this.bar.hidden = this.cancelBtn.hidden = true;
    try {
      const summary = await engine().solve.call('loadSolution', { text, file: await file.text() });
      if (this.text !== text) return;
      this.done = { text, summary };
      this.shown = null;
      this.toggle.checked = true;
      this.toggle.setAttribute('aria-checked', 'true');
      this.line.textContent = `${file.name}: ${summaryLine(summary, this.roles)}`;
    } catch (e) {
      this.line.textContent = `Cannot load ${file.name}: ${e.message}`;
    }
    this.onChange();
  }

  /**
   * The solved position of the state `s` (describe's state) when the switch
   * is on and the game is solved, completely or in part (a partial
   * solution has values only where they are proved); null otherwise or
   * while it is being asked (`onChange` is called when it arrives).
   */
  positionOf(s) {
    if (!this.on || !this.done || this.done.text !== this.text || !s) return null;
    const key = JSON.stringify(s.fluents);
    if (this.shown?.key === key) return this.shown.position;
    if (this.asking === key) return null;
    this.asking = key;
    engine().solve.call('solvedPosition', { text: this.text, fluents: s.fluents }).then(
      (position) => {
        if (this.asking !== key) return;
        this.asking = null;
        this.shown = { key, position };
        this.onChange();
      },
      (e) => {
        if (this.asking !== key) return;
        // The worker lost the solution (it was restarted): say so; switching on solves again.
        this.asking = null;
        this.done = null;
        this.toggle.checked = false;
        this.toggle.setAttribute('aria-checked', 'false');
        this.line.textContent = `The solution was lost (${e.message}); switch on to solve again.`;
      },
    );
    return null;
  }

  /** The solved values of states (lists of fluents) when the game `text` is solved, in part or completely; null otherwise. */
  async values(text, states) {
    if (!this.done || this.done.text !== text) return null;
    return engine().solve.call('solvedValues', { text, states });
  }
}
