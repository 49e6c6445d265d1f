// The "Why?" panel of the play view: every legal move's value in the
// position shown, under a chosen heuristic, and for the planning
// heuristics (the thesis's f_JO, h_FF, h_add, h_max) the relaxed plan to
// each goal value: what `gdlkit explain` prints (docs/planning.md),
// computed by the engine in the `think` worker; this module only draws it.
// The play view draws the same explanation on the board (overlay.js); the
// table stays for screen readers and copying. A move's "plan" button puts
// its relaxed plan on the board.

import { engine } from '../engine/client.js';
import { h } from '../dom.js';
import { solvedText } from './perfect.js';

const num = (v) => (v === null || v === undefined ? '∞' : String(Math.round(v * 1000) / 1000));

/** The planning heuristics' action costs (`explain`'s `costs`, crate/play/src/search/fjo.rs COST_PRESETS). */
export const COSTS = [
  ['default', 'costs: default', 'Thesis 4.5: every rule without `does` that changes the state (whose turn it is, a step counter) costs 1'],
  ['thesis', 'costs: thesis table', 'Rules without `does` cost 0: the thesis’s own tic-tac-toe table (every first move 25/3; docs/planning.md, deviation 2)'],
];

export class WhyPanel {
  /**
   * `ask()` is called when the user presses the button; `onShow(e,
   * planMove)` when an explanation is shown or another move's plan chosen
   * (null: cleared).
   */
  constructor(ask, onShow = () => {}) {
    this.onShow = onShow;
    this.heuristic = h('select', { 'aria-label': 'heuristic to explain with' });
    this.costs = h('select', { 'aria-label': 'action costs of the planning heuristics' },
      ...COSTS.map(([value, text, title]) => h('option', { value, text, title })));
    this.button = h('button', { type: 'button', text: 'Why?', title: 'Each legal move’s value in the position shown', on: { click: ask } });
    this.body = h('div', { class: 'why-body', 'aria-live': 'polite' });
    this.root = h('section', { class: 'panel why-panel', 'aria-label': 'Why?' },
      h('h3', { text: 'Why?' }), h('div', { class: 'row' }, this.heuristic, this.costs, this.button), this.body);
    this.call = null;
    /** Names of the heuristics `explain` reports as distances (lower is better). */
    this.distances = new Set();
    this.loaded = null;
    /** The Perfect-play values of the position shown (SolvedPosition, from Rust), or null. */
    this.solved = null;
  }

  /** The solved column's values (null: Perfect play is off or the game is not solved). */
  setSolved(position, roleName) {
    if (position === this.solved) return;
    this.solved = position;
    this.solvedRole = roleName;
    this.fillSolved();
  }

  /** Writes the solved column from `solved` (hidden without it). */
  fillSolved() {
    const byMove = new Map((this.solved?.moves ?? []).map((m) => [m.move, m]));
    for (const cell of this.body.querySelectorAll('.why-solved')) {
      cell.hidden = !this.solved;
      const move = cell.closest('tr')?.dataset.move;
      if (!move) continue;
      const m = byMove.get(move);
      cell.textContent = m ? solvedText(m, this.solved.role) : '';
      cell.dataset.solved = m ? (m.value ? m.outcome : 'unknown') : '';
      cell.title = m ? `perfect play: ${this.solvedRole} ${solvedText(m, this.solved.role)}` : '';
    }
  }

  /** Loads the list once (the view calls it when it shows a game, so no worker starts before). */
  ensureLoaded() {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /**
   * Fills the list from the engine's heuristics registry (`heuristics()`,
   * crate/play/src/search/heuristics.rs: `explain` marks those offered here,
   * `distance` those whose best value is the smallest); f_JO is selected.
   */
  async load() {
    try {
      const { heuristics } = await engine().think.call('players', {});
      const offered = (heuristics ?? []).filter((x) => x.explain);
      this.distances = new Set(offered.filter((x) => x.distance).map((x) => x.name));
      const chosen = this.heuristic.value;
      this.heuristic.replaceChildren(...offered.map((x) => h('option', { value: x.name, text: x.label, title: x.description })));
      this.heuristic.value = offered.some((x) => x.name === chosen) ? chosen : offered.some((x) => x.name === 'fjo') ? 'fjo' : (offered[0]?.name ?? '');
    } catch {
      // The engine failed (the view says so): asked again next time.
      this.loaded = null;
    }
  }

  /** Forgets the shown explanation (a pending one is ignored when it ends: cancelling would restart the worker the engine thinks in). */
  clear() {
    this.call = null;
    this.shown = null;
    this.body.replaceChildren();
    this.onShow(null, null);
  }

  /** Explains the position after `moves` (joint moves) of the game `kif`. */
  async explain(kif, moves) {
    this.clear();
    this.body.replaceChildren(h('p', { text: 'computing…' }));
    await this.ensureLoaded();
    // Without a list (the engine could not say), the engine's default (f_JO).
    const options = { moves, costs: this.costs.value, ...(this.heuristic.value ? { heuristic: this.heuristic.value } : {}) };
    const call = engine().think.call('explain', { kif, options });
    this.call = call;
    try {
      const e = await call;
      if (this.call === call) this.show(e);
    } catch (err) {
      if (this.call === call) this.body.replaceChildren(h('p', { class: 'error', text: err.message }));
    }
  }

  /** Whether the explanation's values are distances (lower is better; the `-thesis` variants as their base). */
  isDistance(e) {
    return this.distances.has(e.heuristic.replace(/-thesis$/, ''));
  }

  show(e, planMove = e.chosen ?? null) {
    this.shown = e;
    const head = h('p', { class: 'why-summary', text: `${e.role}, ${e.heuristic}: position ${num(e.value)}${e.terminal ? ' (terminal)' : ''}` });
    const planButton = (m) => (m.goals.some((g) => g.plan.length)
      ? h('button', { type: 'button', class: 'link why-plan-button', text: 'plan', title: `Draw the relaxed plan after ${m.move} on the board`, 'aria-pressed': String(m.move === planMove), on: { click: () => this.show(e, m.move) } })
      : '');
    const rowClass = (m) => [m.move === e.chosen ? 'why-best' : '', m.move === e.runnerUp ? 'why-runner-up' : '', m.move === planMove ? 'why-plan' : ''].filter(Boolean).join(' ');
    const rows = e.moves.map((m) => h('tr', { class: rowClass(m), 'data-move': m.move, 'data-value': String(m.value) },
      h('td', {}, m.move, ' ', planButton(m)),
      h('td', { class: 'why-value', text: num(m.value) + (m.terminal ? ' (end)' : '') }),
      h('td', { class: 'why-solved' }),
      h('td', {}, ...m.goals.map((g) => h('div', { class: 'why-goal', text: `goal ${g.goal}: h_FF ${num(g.hFf)} h_add ${num(g.hAdd)} h_max ${num(g.hMax)} [${g.plan.join(', ')}]` })),
        ...(m.replies ?? []).map((r) => h('div', { class: 'why-goal', text: `reply ${r.moves.join(' ')}: ${num(r.value)}` })))));
    const table = h('table', { class: 'why-table' },
      h('thead', {}, h('tr', {}, h('th', { text: 'move' }), h('th', { text: 'value' }), h('th', { class: 'why-solved', text: 'solved', title: 'The move’s value under perfect play (Perfect play switch)' }), h('th', { text: 'relaxed plans' }))),
      h('tbody', {}, ...rows));
    this.body.replaceChildren(head, table);
    this.fillSolved();
    this.onShow(e, planMove);
  }
}
