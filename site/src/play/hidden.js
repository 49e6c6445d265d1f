// GDL-II in the play view: what one seat may see (its own moves and its
// percepts, never the state), the cover between two human seats on one
// device, and the whole history once the game is over. The percepts are
// the engine's (the game worker's `percepts`, the ones `replay` records);
// this module only draws them.

import { h } from '../dom.js';

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

/** A list of percepts as text (`nothing` when empty). */
const perceptText = (percepts) => (percepts.length ? percepts.join(', ') : 'nothing');

/** One seat's view: its role, and per step its move and what it saw. */
export function seatPanel(session, role) {
  const name = session.roles[role];
  const steps = seenBy(session, role);
  return h('section', { class: 'panel seat-view', data: { role: name }, 'aria-label': `what ${name} has seen` },
    h('h3', { text: `${name}’s view` }),
    h('p', { class: 'muted', text: `The board is hidden: ${name} knows only its own moves and what it perceived.` }),
    steps.length
      ? h('ol', { class: 'seen-list' }, steps.map((s, i) =>
          h('li', { data: { step: String(i + 1) } },
            h('span', { class: 'seen-move', text: `step ${i + 1}: played ${s.move}` }),
            h('span', { class: 'seen-percepts', text: ` — saw ${perceptText(s.percepts)}` }))))
      : h('p', { text: 'Nothing played yet.' }));
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
          return h('li', { class: 'reveal-move', text: `${who}: ${move}${r === chance ? '' : ` — saw ${perceptText(seen)}`}` });
        }))))));
}

/** A step of the move list: the chance role's move reads `chance: …`. */
export function chanceText(session, move, r) {
  return r === session.chance ? `chance: ${move}` : move;
}
