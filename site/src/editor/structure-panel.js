// The Rules view's "Structure" panel: what the engine finds in the rules
// (crate/play/src/structure, `gdlkit structure`): roles and whether they
// alternate, teams, boards with their size and order, pieces and markers,
// counters and quantities. Computed in the worker; this module only lists.
// The panel opens beside the editor (below it on a narrow screen, scrolled
// into view) and takes the focus; each structure's "rules" button marks the
// rules that define it in the editor (their spans come from Rust:
// `rulesAt`, crate/play/src/structure/mod.rs `locate`).

import { h } from '../dom.js';
import { engine } from '../engine/client.js';

function rowOf(label, value, at, goto, spans, highlight) {
  const link = at && goto ? [' ', h('button', { type: 'button', class: 'link', text: `line ${at.line}`, title: 'Show the rule that defines it', on: { click: () => goto(at.utf16) } })] : [];
  const n = spans?.length ?? 0;
  const mark = n && highlight
    ? [' ', h('button', { type: 'button', class: 'link structure-rules', text: `${n} rule${n === 1 ? '' : 's'}`, title: 'Mark the rules that define it in the editor', 'aria-pressed': 'false', on: { click: (event) => highlight(spans, event.currentTarget) } })]
    : [];
  return h('li', {}, h('strong', { text: `${label}: ` }), value, ...link, ...mark);
}

function boardText(b) {
  const size = b.size.join(' × ');
  const order = b.ordered.map((o, i) => (o ? `ordered by ${b.order[i]}` : 'unordered')).join(', ');
  return `(${b.fluent} …) ${size}, coordinates ${b.coordinates.map((c) => c + 1).join(', ')} (${order})`;
}

/**
 * Lists a structure (the result of `structure()`); `goto(offset)` shows a
 * rule in the editor, `highlight(ranges)` marks rules in it.
 */
export function renderStructure(st, goto, highlight) {
  const definedAt = (name) => st.definedAt?.[name];
  // The rows of named structures get their rules' spans; one is marked at a time.
  let pressed = null;
  const mark = highlight && ((spans, button) => {
    const off = pressed === button;
    pressed?.setAttribute('aria-pressed', 'false');
    pressed = off ? null : button;
    button.setAttribute('aria-pressed', String(!off));
    highlight(off ? [] : spans);
  });
  const row = (label, value, name) => rowOf(label, value, name && definedAt(name), goto, name && st.rulesAt?.[name], mark);
  const items = [
    row('Roles', `${st.roles.join(', ')} — ${st.turnTaking ? 'turn-taking' : 'simultaneous'}${st.noopMoves.length ? ` (no-op: ${st.noopMoves.join(', ')})` : ''}`),
    row('Teams', st.teams.map((t) => `[${t.join(', ')}]`).join(' ')),
    row('Goals', `${Object.entries(st.goalValues).map(([r, v]) => `${r}: ${v.join('/')}`).join('; ')}${st.constantSum !== null ? ` — constant sum ${st.constantSum}` : ''}`),
  ];
  for (const b of st.boards) {
    items.push(row('Board', boardText(b), b.fluent));
    if (b.pieces.length) items.push(row('Pieces', b.pieces.join(', ')));
    if (b.markers.length) items.push(row('Markers', b.markers.join(', ')));
  }
  for (const c of st.counters) items.push(row('Counter', `(${c.fluent} …) argument ${c.argument + 1} along ${c.successor}${c.limit ? `, up to ${c.limit}` : ''}`, c.fluent));
  for (const q of st.quantities) items.push(row('Quantity', `(${q.fluent} …) argument ${q.argument + 1} along ${q.successor}`, q.fluent));
  for (const s of st.successors) items.push(row('Successor', `${s.relation}: ${s.chain.slice(0, 12).join(' ')}${s.chain.length > 12 ? ' …' : ''}`, s.relation));
  for (const o of st.orders) items.push(row('Order', `${o.relation} along ${o.successor}`, o.relation));
  if (st.features.length) items.push(row('Features', st.features.join(', ')));
  items.push(row('Evidence', `${st.statesSampled} states sampled (${st.terminalStatesSampled} terminal)`));
  return h('ul', { class: 'structure-list' }, ...items);
}

/**
 * A toolbar button and the panel it fills (on demand); `goto(offset)` shows
 * a rule, `highlight(ranges)` marks rules in the editor. The panel is shown
 * in view and focused, so that pressing the button visibly does something.
 */
export function mountStructurePanel(getText, goto, highlight) {
  const button = h('button', { type: 'button', text: 'Structure', title: 'Boards, pieces, counters, roles found in the rules', 'aria-expanded': 'false' });
  const panel = h('section', { class: 'structure-panel', hidden: true, 'aria-label': 'Structure', tabindex: '-1' });
  const close = h('button', { type: 'button', class: 'link', text: 'Close', title: 'Close the Structure panel', on: { click: () => hide() } });
  const head = () => h('div', { class: 'structure-head' }, h('h3', { text: 'Structure' }), close);
  const hide = () => {
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    highlight?.([]);
    button.focus();
  };
  const show = (...content) => {
    panel.replaceChildren(head(), ...content);
    panel.scrollIntoView({ block: 'nearest' });
  };
  button.addEventListener('click', async () => {
    panel.hidden = false;
    button.setAttribute('aria-expanded', 'true');
    highlight?.([]);
    show(h('div', { class: 'muted', text: 'Finding the structure…' }));
    panel.focus({ preventScroll: true });
    try {
      const st = await engine().game.call('structure', { text: getText() });
      show(st ? renderStructure(st, goto, highlight) : h('div', { class: 'muted', text: 'The rules have errors: fix them first.' }));
    } catch (e) {
      show(h('div', { class: 'muted', text: e.message }));
    }
  });
  return { button, panel };
}
