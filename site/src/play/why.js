// The "Why?" panel of the play view: every legal move's value in the
// position shown, under a chosen heuristic, and for the planning
// heuristics (the thesis's f_JO, h_FF, h_add, h_max) the relaxed plan to
// each goal value: what `gdlkit explain` prints (docs/planning.md),
// computed by the engine in the `think` worker; this module only draws it.

import { engine } from '../engine/client.js';
import { h, select } from '../dom.js';

export const WHY_HEURISTICS = [
  ['fjo', 'f_JO (thesis)'],
  ['hff', 'h_FF distance'],
  ['hadd', 'h_add distance'],
  ['hmax', 'h_max distance'],
  ['fuzzy', 'fuzzy goal distance'],
  ['mobility', 'mobility'],
];

const num = (v) => (v === null || v === undefined ? '∞' : String(Math.round(v * 1000) / 1000));

export class WhyPanel {
  /** `ask()` is called when the user presses the button. */
  constructor(ask) {
    this.heuristic = select(WHY_HEURISTICS, 'fjo', { 'aria-label': 'heuristic to explain with' });
    this.button = h('button', { type: 'button', text: 'Why?', title: 'Each legal move’s value in the position shown', on: { click: ask } });
    this.body = h('div', { class: 'why-body', 'aria-live': 'polite' });
    this.root = h('section', { class: 'panel why-panel', 'aria-label': 'Why?' },
      h('h3', { text: 'Why?' }), h('div', { class: 'row' }, this.heuristic, this.button), this.body);
    this.call = null;
  }

  /** Forgets the shown explanation (a pending one is ignored when it ends: cancelling would restart the worker the engine thinks in). */
  clear() {
    this.call = null;
    this.body.replaceChildren();
  }

  /** Explains the position after `moves` (joint moves) of the game `kif`. */
  async explain(kif, moves) {
    this.clear();
    this.body.replaceChildren(h('p', { text: 'computing…' }));
    const call = engine().think.call('explain', { kif, options: { moves, heuristic: this.heuristic.value } });
    this.call = call;
    try {
      const e = await call;
      if (this.call === call) this.show(e);
    } catch (err) {
      if (this.call === call) this.body.replaceChildren(h('p', { class: 'error', text: err.message }));
    }
  }

  show(e) {
    const distance = ['hff', 'hadd', 'hmax'].includes(e.heuristic);
    const values = e.moves.map((m) => m.value).filter((v) => v !== null);
    const best = values.length ? (distance ? Math.min(...values) : Math.max(...values)) : null;
    const head = h('p', { class: 'why-summary', text: `${e.role}, ${e.heuristic}: position ${num(e.value)}${e.terminal ? ' (terminal)' : ''}` });
    const rows = e.moves.map((m) => h('tr', { class: m.value === best ? 'why-best' : '', 'data-move': m.move, 'data-value': String(m.value) },
      h('td', { text: m.move }),
      h('td', { class: 'why-value', text: num(m.value) + (m.terminal ? ' (end)' : '') }),
      h('td', {}, ...m.goals.map((g) => h('div', { class: 'why-goal', text: `goal ${g.goal}: h_FF ${num(g.hFf)} h_add ${num(g.hAdd)} h_max ${num(g.hMax)} [${g.plan.join(', ')}]` })),
        ...(m.replies ?? []).map((r) => h('div', { class: 'why-goal', text: `reply ${r.moves.join(' ')}: ${num(r.value)}` })))));
    const table = h('table', { class: 'why-table' },
      h('thead', {}, h('tr', {}, h('th', { text: 'move' }), h('th', { text: 'value' }), h('th', { text: 'relaxed plans' }))),
      h('tbody', {}, ...rows));
    this.body.replaceChildren(head, table);
  }
}
