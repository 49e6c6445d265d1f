// The play view's "Solve with BDDs" button: solves the game symbolically
// in its own worker (Rust's `solve_symbolic`, Kissmann and Edelkamp's
// method: reachable states layer by layer as BDDs, then the retrograde
// classification), showing each layer as it is found. The solve blocks
// that worker, so Cancel ends the worker. Every count comes from Rust;
// this module only words them. It gives counts and the start's value, not
// the per-position values the Perfect play switch marks moves with.

import { engine } from '../engine/client.js';
import { h } from '../dom.js';

const count = (n) => Number(n).toLocaleString('en');

/** The line a finished symbolic solve leaves. */
export function symbolicLine(s) {
  const st = s.stats;
  const layers = `${count(st.states)} states (${count(st.terminal)} terminal) in ${st.layers.length} layers`;
  const figures = `peak ${count(st.peakNodes)} BDD nodes, ${st.seconds.toFixed(1)} s`;
  if (!s.complete) return `BDDs stopped (${s.stopped ?? 'stopped'}): ${layers} so far; ${figures}.`;
  const start = s.initial ? s.roles.map((r, i) => `${r} ${s.initial[i]}`).join(', ') : 'no value (no role can force an end)';
  const values = s.byValue.map((v) => `${v.goals ? v.goals.join('/') : 'unknown'}: ${count(v.states)}`).join(', ');
  return `BDDs (${s.concept}): ${layers}; from the start ${start}. States by value: ${values}; ${figures}.`;
}

export class SymbolicSolve {
  constructor() {
    this.button = h('button', { type: 'button', class: 'solve-symbolic', text: 'Solve with BDDs', title: 'Count the reachable states and find the start’s value symbolically (BDDs, layer by layer), without listing the states', on: { click: () => this.start() } });
    this.cancelBtn = h('button', { type: 'button', class: 'danger', text: 'Cancel', hidden: true, on: { click: () => this.call?.terminate() } });
    this.line = h('span', { class: 'symbolic-status', 'aria-live': 'polite' });
    this.root = h('div', { class: 'row symbolic-solve' }, this.button, this.cancelBtn, this.line);
    this.text = null;
    this.call = null;
  }

  /** A game is loaded: a solve of another game is stopped and its line cleared. */
  setGame(text) {
    if (text === this.text) return;
    this.text = text;
    this.call?.terminate();
    this.call = null;
    this.line.textContent = '';
    this.cancelBtn.hidden = true;
  }

  async start() {
    const text = this.text;
    if (!text || this.call) return;
    this.cancelBtn.hidden = false;
    this.line.textContent = 'BDDs: grounding…';
    const call = engine().symbolic.call('solveSymbolic', { text }, {
      onProgress: (p) => {
        if (this.call === call && p?.phase) this.line.textContent = `BDDs: ${p.phase.replace(/^solve --symbolic: /, '')}, ${p.detail} (${(p.elapsedMs / 1000).toFixed(1)} s)`;
      },
    });
    this.call = call;
    let line;
    try {
      line = symbolicLine(await call);
    } catch (e) {
      line = e.name === 'Cancelled' ? 'BDDs: cancelled.' : `BDDs: ${e.message}`;
    }
    if (this.call !== call) return;
    this.call = null;
    this.cancelBtn.hidden = true;
    this.line.textContent = line;
  }
}
