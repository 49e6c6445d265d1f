// GDL-II in the play view: what one seat may see (its own moves and its
// percepts, never the state), the cover between two human seats on one
// device, and the whole history once the game is over. The percepts are
// the engine's (the game worker's `percepts`, the ones `replay` records);
// this module only draws them.

import { h } from '../dom.js';
import { cellKey, drawingSvg, renderBoard } from './board.js';

/**
 * The game so far as role `role` saw it: per step its move and its
 * percepts, `[{move, percepts}]` (what an engine seat is told, and what a
 * human seat's panel lists). `states[i + 1].percepts` are the percepts of
 * the joint move `moves[i]`.
 */
export function seenBy(session, role, upto = session.cursor) {
  return session.moves.slice(0, upto).map((joint, i) => ({
    move: joint[role],
    percepts: session.states[i + 1]?.percepts?.[role] ?? [],
  }));
}

/**
 * Chance's draw at step `i` (0-based) drawn as the engine names it (cards,
 * dice: the worker's `chanceDrawn`), all of it or what `role` saw of it;
 * null when there is nothing to draw.
 */
export function chanceDrawn(session, i, role = null) {
  const drawn = session.states[i + 1]?.chanceDrawn;
  const list = role === null ? drawn?.all : drawn?.seen?.[role];
  if (!list?.length) return null;
  const what = list.map((d) => `${d.kind} ${d.content}`).join(', ');
  return h('span', { class: 'chance-drawn', role: 'img', 'aria-label': what, title: what }, ...list.map(drawingSvg));
}

/** A list of percepts as text (`nothing` when empty). */
const perceptText = (percepts) => (percepts.length ? percepts.join(', ') : 'nothing');

/**
 * One seat's view: its role, what it knows of the state (`belief`, the
 * worker's; a placeholder while it is computed), and per step its move
 * and what it saw.
 */
export function seatPanel(session, role, belief = null) {
  const name = session.roles[role];
  const steps = seenBy(session, role);
  return h('section', { class: 'panel seat-view', data: { role: name }, 'aria-label': `what ${name} has seen` },
    h('h3', { text: `${name}’s view` }),
    h('p', { class: 'muted', text: `The state is hidden: ${name} sees only its own moves and what it perceived, and knows what holds in every state consistent with them.` }),
    belief ?? h('p', { class: 'belief belief-pending muted', text: `Working out what ${name} knows…` }),
    steps.length
      ? h('ol', { class: 'seen-list' }, steps.map((s, i) =>
          h('li', { data: { step: String(i + 1) } },
            h('span', { class: 'seen-move', text: `step ${i + 1}: played ${s.move}` }),
            h('span', { class: 'seen-percepts', text: ` — saw ${perceptText(s.percepts)}` }),
            chanceDrawn(session, i, role) ?? '')))
      : h('p', { text: 'Nothing played yet.' }));
}

const percent = (chance) => `${Math.round(chance * 100)}%`;

/**
 * What a seat knows (the worker's `belief`): the board of the fluents true
 * in every consistent state, each cell that may hold something else marked
 * with its chances, and the fluents off the board.
 */
export function beliefPanel(view, name) {
  const count = view.exact
    ? `${view.states} state${view.states === 1 ? ' is' : 's are'} consistent with what ${name} has seen.`
    : `Many states are consistent with what ${name} has seen; the chances are from a sample of ${view.states}.`;
  const parts = [h('p', { class: 'belief-count muted', text: count })];
  if (view.board) {
    const grid = renderBoard(view.board);
    const maybe = new Map();
    for (const c of view.uncertainCells) {
      const key = cellKey(c.z === '' ? [c.x, c.y] : [c.x, c.y, c.z]);
      maybe.set(key, [...(maybe.get(key) ?? []), `${c.content} ${percent(c.chance)}`]);
    }
    for (const [key, list] of maybe) {
      const cell = grid.querySelector(`[data-cell="${CSS.escape(key)}"]`);
      if (!cell) continue;
      cell.classList.add('uncertain');
      cell.title = `may hold ${list.join(', ')}`;
      cell.setAttribute('aria-label', `${cell.getAttribute('aria-label')}; may hold ${list.join(', ')}`);
    }
    parts.push(grid);
    if (maybe.size) parts.push(h('p', { class: 'belief-legend muted', text: 'Dashed cells are in doubt: point at one for what it may hold, with the chances.' }));
  }
  const known = view.board ? view.board.rest : view.known;
  if (known.length) parts.push(h('p', { class: 'belief-known', text: `Known: ${known.join(', ')}` }));
  if (view.uncertainRest.length) {
    parts.push(h('p', { class: 'belief-uncertain', text: `May hold: ${view.uncertainRest.map((u) => `${u.fluent} ${percent(u.chance)}`).join(', ')}` }));
  }
  return h('div', { class: 'belief', role: 'group', 'aria-label': `what ${name} knows` }, ...parts);
}

/**
 * The cover between two human seats: nothing of either seat's view is in
 * the page until the seat to play clicks.
 */
export function coverPanel(name, onShow) {
  return h('div', { class: 'seat-cover', role: 'dialog', 'aria-label': `pass the device to ${name}` },
    h('button', { type: 'button', class: 'seat-cover-button', data: { role: name }, text: `Player ${name}’s turn — click to show`, on: { click: onShow } }));
}

/** The history once the game is over: per step every role's move and percepts, chance's draws marked. */
export function revealPanel(session) {
  const { roles, moves, states, chance } = session;
  return h('section', { class: 'panel reveal', 'aria-label': 'the whole game revealed' },
    h('h3', { text: 'The whole game (revealed)' }),
    h('ol', { class: 'reveal-list' }, moves.map((joint, i) =>
      h('li', { data: { step: String(i + 1) } },
        h('ul', {}, joint.map((move, r) => {
          const seen = states[i + 1]?.percepts?.[r] ?? [];
          const who = r === chance ? 'chance' : roles[r];
          return h('li', { class: 'reveal-move', text: `${who}: ${move}${r === chance ? '' : ` — saw ${perceptText(seen)}`}` },
            r === chance ? (chanceDrawn(session, i) ?? '') : '');
        }))))));
}

/** A step of the move list: the chance role's move reads `chance: …`. */
export function chanceText(session, move, r) {
  return r === session.chance ? `chance: ${move}` : move;
}
