// The Rules view's "Instantiation" panel: what grounding did to the game
// (crate/engine/src/ground/report.rs, `gdlkit ground`): ground atoms per
// relation, the rules that produced the most instances, the network's size
// and depth; for a game that does not ground, where and why it stopped; for
// a small game its ground rules. Computed in the worker; this module only
// lists. It opens beside the editor, as the Structure panel does.

import { h } from '../dom.js';
import { engine } from '../engine/client.js';

const count = (n) => n.toLocaleString('en-US');

function networkText(n) {
  return `${count(n.atoms)} propositions (${count(n.base)} base, ${count(n.inputs)} inputs, ${count(n.legals)} legal), `
    + `${count(n.gates)} gates, ${count(n.links)} links, depth ${n.depth}, ${count(n.cyclicComponents)} cyclic components, `
    + `${count(n.instances)} rule instances`;
}

// A proposition feeding many ANDs may guard them: the ANDs leave it out of
// their counts and it lists those whose other inputs hold. Kept where a short
// walk finds the list cheaper than the counts (docs/fast-engine.md).
function guardsText(n) {
  return `${count(n.guards)} of ${count(n.guardCandidates)} propositions tried keep lists of the ANDs they feed `
    + `(${count(n.guardedAnds)} ANDs); the others propagate to their ANDs' counts.`;
}

// Parts of the state the moves change apart (two boards played at once): the
// default player searches the part its role moves in alone.
function subgamesText(parts) {
  const each = parts.map((p, i) => `part ${i + 1}: ${count(p.base)} base, ${count(p.legals)} legal, ${p.movers} ${p.movers === 1 ? 'role' : 'roles'} moving`);
  return `${parts.length} independent parts (${each.join('; ')}); the default player searches alone a part that two roles move in.`;
}

function lineLink(line, goto, lines) {
  if (!goto || !line) return [];
  return [' ', h('button', { type: 'button', class: 'link', text: `line ${line}`, title: 'Show the rule', on: { click: () => goto(lines(line)) } })];
}

function outcomeText(r) {
  if (r.outcome === 'grounded') return `Grounded in ${Math.round(r.ms)} ms.`;
  return r.hybrid ? `Not grounded whole (${r.outcome}); the hybrid engine runs it.` : `Not grounded (${r.outcome}).`;
}

/**
 * Lists a report (the result of `groundReport()`); `goto(offset)` shows a
 * rule in the editor, `offsetOfLine(line)` is the offset of a 1-based line.
 */
export function renderGroundReport(r, goto, offsetOfLine) {
  const items = [h('p', { class: 'ground-outcome', 'data-outcome': r.outcome, text: outcomeText(r) })];
  if (r.stop) {
    items.push(h('p', { class: 'ground-stop' }, h('strong', { text: 'Why: ' }), r.stop.reason));
    if (r.stop.rule) items.push(h('p', { class: 'ground-where' }, h('strong', { text: 'Where: ' }), `the rule for ${r.stop.rule}`, ...lineLink(r.stop.line, goto, offsetOfLine)));
  }
  if (r.hybrid) items.push(h('p', { class: 'ground-hybrid' }, h('strong', { text: 'Hybrid: ' }), `the moves ground without the end tests; the interpreter answers ${r.hybrid}, and what follows is the network of the rest.`));
  if (r.network) items.push(h('p', { class: 'ground-network' }, h('strong', { text: 'Network: ' }), networkText(r.network)));
  if (r.network?.guardCandidates) items.push(h('p', { class: 'ground-guards' }, h('strong', { text: 'Guarded ANDs: ' }), guardsText(r.network)));
  if (r.network?.subgames.length) items.push(h('p', { class: 'ground-subgames' }, h('strong', { text: 'Subgames: ' }), subgamesText(r.network.subgames)));
  if (r.relations.length) {
    const rows = r.relations.map((c) => h('tr', { 'data-relation': c.relation }, h('td', { text: c.relation }), h('td', { class: 'num', text: count(c.atoms) })));
    rows.push(h('tr', {}, h('td', { class: 'muted', text: 'auxiliary (split rules)' }), h('td', { class: 'num', text: count(r.auxiliaryAtoms) })));
    items.push(h('h4', { text: 'Ground atoms per relation' }), h('table', { class: 'ground-relations' }, ...rows));
    items.push(h('p', { class: 'ground-decomposed' }, h('strong', { text: 'Decomposed: ' }), decomposedText(r)));
  }
  if (r.topRules.length) {
    const rows = r.topRules.map((t) => h('li', {}, h('strong', { text: `${count(t.instances)} ` }), `${t.head}`, ...lineLink(t.line, goto, offsetOfLine), h('div', { class: 'ground-rule-text', text: t.text })));
    items.push(h('h4', { text: 'Rules that grew most (instances)' }), h('ol', { class: 'ground-top' }, ...rows));
  }
  if (r.groundRules.length) {
    items.push(h('h4', { text: `Ground rules (${count(r.groundRuleCount)})` }), h('pre', { class: 'ground-rules', text: r.groundRules.join('\n') }));
  } else if (r.groundRuleCount) {
    items.push(h('p', { class: 'muted', text: `${count(r.groundRuleCount)} ground rules (listed for games of at most 300).` }));
  }
  return h('div', { class: 'ground-report' }, ...items);
}

/** The offset of the start of 1-based `line` in `text`. */
function offsetOf(text, line) {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return offset;
}

/**
 * A toolbar button and the panel it fills on demand (grounding runs in the
 * worker); `goto(offset)` shows a rule in the editor.
 */
export function mountGroundPanel(getText, goto) {
  const button = h('button', { type: 'button', text: 'Instantiation', title: 'What grounding does to the rules: ground atoms, rules that grow, the network', 'aria-expanded': 'false' });
  const panel = h('section', { class: 'structure-panel ground-panel', hidden: true, 'aria-label': 'Instantiation', tabindex: '-1' });
  const close = h('button', { type: 'button', class: 'link', text: 'Close', title: 'Close the Instantiation panel', on: { click: () => hide() } });
  const head = () => h('div', { class: 'structure-head' }, h('h3', { text: 'Instantiation' }), close);
  const hide = () => {
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    button.focus();
  };
  const show = (...content) => {
    panel.replaceChildren(head(), ...content);
    panel.scrollIntoView({ block: 'nearest' });
  };
  button.addEventListener('click', async () => {
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    show(h('div', { class: 'muted', text: 'Grounding the rules…' }));
    panel.focus({ preventScroll: true });
    const text = getText();
    try {
      const r = await engine().game.call('groundReport', { text });
      show(r ? renderGroundReport(r, goto, (line) => offsetOf(text, line)) : h('div', { class: 'muted', text: 'The rules have errors: fix them first.' }));
    } catch (e) {
      show(h('div', { class: 'muted', text: e.message }));
    }
  });
  return { button, panel };
}

/** What rule decomposition did, in words. */
function decomposedText(r) {
  const parts = [`${count(r.auxiliaryRules)} auxiliary rule${r.auxiliaryRules === 1 ? '' : 's'} split off long bodies`];
  if (r.exclusions) parts.push(`${count(r.exclusions)} "all but one" rule${r.exclusions === 1 ? '' : 's'} kept as prefix and suffix ORs`);
  if (r.countingRules) parts.push(`${count(r.countingRules)} rule${r.countingRules === 1 ? '' : 's'} of k distinct values kept as "at least k" gates`);
  if (r.folds === 1) parts.push('1 recursion that carries its answer through, rewritten as a fold');
  else if (r.folds) parts.push(`${count(r.folds)} recursions that carry their answers through, rewritten as folds`);
  return parts.join('; ');
}
