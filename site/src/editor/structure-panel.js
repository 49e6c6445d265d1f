// The Rules view's "Structure" panel: what the engine finds in the rules
// (crate/src/structure, `gdlkit structure`): roles and whether they
// alternate, teams, boards with their size and order, pieces and markers,
// counters and quantities. Computed in the worker; this module only lists.

import { h } from '../dom.js';
import { engine } from '../engine/client.js';

function row(label, value, at, goto) {
  const link = at && goto ? [' ', h('button', { type: 'button', class: 'link', text: `line ${at.line}`, title: 'Show the rule that defines it', on: { click: () => goto(at.utf16) } })] : [];
  return h('li', {}, h('strong', { text: `${label}: ` }), value, ...link);
}

function boardText(b) {
  const size = b.size.join(' × ');
  const order = b.ordered.map((o, i) => (o ? `ordered by ${b.order[i]}` : 'unordered')).join(', ');
  return `(${b.fluent} …) ${size}, coordinates ${b.coordinates.map((c) => c + 1).join(', ')} (${order})`;
}

/** Lists a structure (the result of `structure()`); `goto(offset)` shows a rule in the editor. */
export function renderStructure(st, goto) {
  const at = (name) => st.definedAt?.[name];
  const items = [
    row('Roles', `${st.roles.join(', ')} — ${st.turnTaking ? 'turn-taking' : 'simultaneous'}${st.noopMoves.length ? ` (no-op: ${st.noopMoves.join(', ')})` : ''}`),
    row('Teams', st.teams.map((t) => `[${t.join(', ')}]`).join(' ')),
    row('Goals', `${Object.entries(st.goalValues).map(([r, v]) => `${r}: ${v.join('/')}`).join('; ')}${st.constantSum !== null ? ` — constant sum ${st.constantSum}` : ''}`),
  ];
  for (const b of st.boards) {
    items.push(row('Board', boardText(b), at(b.fluent), goto));
    if (b.pieces.length) items.push(row('Pieces', b.pieces.join(', ')));
    if (b.markers.length) items.push(row('Markers', b.markers.join(', ')));
  }
  for (const c of st.counters) items.push(row('Counter', `(${c.fluent} …) argument ${c.argument + 1} along ${c.successor}${c.limit ? `, up to ${c.limit}` : ''}`, at(c.fluent), goto));
  for (const q of st.quantities) items.push(row('Quantity', `(${q.fluent} …) argument ${q.argument + 1} along ${q.successor}`, at(q.fluent), goto));
  for (const s of st.successors) items.push(row('Successor', `${s.relation}: ${s.chain.slice(0, 12).join(' ')}${s.chain.length > 12 ? ' …' : ''}`, at(s.relation), goto));
  for (const o of st.orders) items.push(row('Order', `${o.relation} along ${o.successor}`, at(o.relation), goto));
  if (st.features.length) items.push(row('Features', st.features.join(', ')));
  items.push(row('Evidence', `${st.statesSampled} states sampled (${st.terminalStatesSampled} terminal)`));
  return h('ul', { class: 'structure-list' }, ...items);
}

/** A toolbar button and the panel it fills (on demand); `goto(offset)` shows a rule. */
export function mountStructurePanel(getText, goto) {
  const button = h('button', { type: 'button', text: 'Structure', title: 'Boards, pieces, counters, roles found in the rules' });
  const panel = h('section', { class: 'structure-panel', hidden: true, 'aria-label': 'Structure' });
  button.addEventListener('click', async () => {
    panel.hidden = false;
    panel.replaceChildren(h('h3', { text: 'Structure' }), h('div', { class: 'muted', text: 'Finding the structure…' }));
    try {
      const st = await engine().game.call('structure', { text: getText() });
      panel.replaceChildren(h('h3', { text: 'Structure' }), st ? renderStructure(st, goto) : h('div', { class: 'muted', text: 'The rules have errors: fix them first.' }));
    } catch (e) {
      panel.replaceChildren(h('h3', { text: 'Structure' }), h('div', { class: 'muted', text: e.message }));
    }
  });
  return { button, panel };
}
