// The first gdlkit page: load a game (KIF), see its roles and state, pick a
// legal move for each role to advance, see the goals at the end.
// All game logic runs in WebAssembly (pkg/gdlkit.js, built by `npm run build`).
// Text from games is always inserted as text (textContent), never as HTML.

import init, { Game, version } from './pkg/gdlkit.js';

const $ = (id) => document.getElementById(id);

/** Creates an element with text content and optional attributes. */
function el(tag, text = '', attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attrs)) {
    node.setAttribute(name, value);
  }
  return node;
}

const view = {
  game: null, // the loaded Game
  roles: [],
  history: [], // state handles, the current one last
  moves: [], // joint moves made, parallel to history (one fewer)
  selected: [], // per role: the chosen move, or null
  info: null, // describe() of the current state
};

function current() {
  return view.history[view.history.length - 1];
}

function showDiagnostics(error) {
  const list = $('diagnostics');
  list.replaceChildren();
  const diagnostics = Array.isArray(error?.diagnostics) ? error.diagnostics : [];
  for (const d of diagnostics) {
    const item = el('li', '', { class: d.severity });
    item.append(el('span', `${d.line}:${d.column} ${d.severity}[${d.code}]`, { class: 'where' }), ` ${d.message}`);
    if (d.hint) {
      item.append(el('div', `hint: ${d.hint}`));
    }
    list.append(item);
  }
  if (diagnostics.length === 0 && error) {
    list.append(el('li', String(error.message ?? error)));
  }
}

function loadGame() {
  const text = $('kif').value;
  if (view.game) {
    view.game.free();
    view.game = null;
  }
  $('play').hidden = true;
  $('diagnostics').replaceChildren();
  try {
    view.game = new Game(text);
  } catch (error) {
    const count = error?.diagnostics?.length ?? 0;
    $('load-status').textContent = count ? `${count} problem${count === 1 ? '' : 's'} in the game` : 'cannot load';
    showDiagnostics(error);
    return;
  }
  view.roles = view.game.roles();
  $('load-status').textContent = `loaded: ${view.roles.length} role${view.roles.length === 1 ? '' : 's'}`;
  $('play').hidden = false;
  restart();
}

function restart() {
  view.game.clearStates();
  view.history = [];
  view.moves = [];
  enterState(view.game.initialState());
}

function enterState(handle) {
  view.history.push(handle);
  view.info = view.game.describe(handle);
  // A role with a single legal move (e.g. `noop`) has it chosen already.
  view.selected = view.info.legal.map((moves) => (moves.length === 1 ? moves[0] : null));
  render();
}

function advance() {
  const joint = view.selected;
  if (view.info.terminal || joint.some((m) => m === null)) {
    return;
  }
  let next;
  try {
    next = view.game.next(current(), joint);
  } catch (error) {
    $('status').textContent = `cannot advance: ${error.message}`;
    $('status').className = 'error';
    return;
  }
  view.moves.push([...joint]);
  enterState(next);
}

function undo() {
  if (view.history.length < 2) {
    return;
  }
  view.game.dropState(view.history.pop());
  view.moves.pop();
  enterState(view.history.pop());
}

function choose(role, move) {
  view.selected[role] = move;
  // Advance as soon as every role has a move and someone had a choice.
  const everyone = view.selected.every((m) => m !== null);
  if (everyone) {
    advance();
  } else {
    render();
  }
}

function renderRoles() {
  const container = $('roles');
  container.replaceChildren();
  view.roles.forEach((role, r) => {
    const box = el('div', '', { class: 'role', 'data-role': role });
    box.append(el('h3', `${role}`));
    const legal = view.info.legal[r];
    if (view.info.terminal) {
      box.append(el('p', 'no moves: the game is over', { class: 'muted' }));
    } else if (legal.length === 0) {
      box.append(el('p', 'no legal move', { class: 'muted' }));
    } else {
      const moves = el('div', '', { class: 'moves' });
      for (const move of legal) {
        const button = el('button', move, {
          type: 'button',
          'data-role': role,
          'data-move': move,
          'aria-pressed': String(view.selected[r] === move),
        });
        button.addEventListener('click', () => choose(r, move));
        moves.append(button);
      }
      box.append(moves);
    }
    container.append(box);
  });
}

function render() {
  const { info } = view;
  const step = view.moves.length;
  const status = $('status');
  status.className = '';
  if (info.terminal) {
    status.textContent = `Game over after ${step} step${step === 1 ? '' : 's'}.`;
  } else if (info.legal.some((moves) => moves.length === 0)) {
    status.textContent = `Step ${step}: a role has no legal move; the game cannot go on.`;
  } else {
    const waiting = view.roles.filter((_, r) => view.selected[r] === null);
    status.textContent = waiting.length
      ? `Step ${step}: choose a move for ${waiting.join(', ')}.`
      : `Step ${step}: every role has a move.`;
  }

  $('goals').hidden = !info.terminal;
  const goalList = $('goal-list');
  goalList.replaceChildren();
  view.roles.forEach((role, r) => {
    const values = info.goals[r];
    goalList.append(el('li', `${role}: ${values.length ? values.join(' / ') : 'no goal value'}`, { 'data-role': role }));
  });

  renderRoles();
  $('fluents').replaceChildren(...info.fluents.map((f) => el('li', f)));
  $('history').replaceChildren(...view.moves.map((joint) => el('li', joint.join('   '))));
  $('undo').disabled = view.moves.length === 0;
  // Needed when no role has a choice (every role has a single legal move).
  $('advance').disabled = info.terminal || view.selected.some((m) => m === null);
}

async function pickGame(file) {
  const response = await fetch(`games/${encodeURIComponent(file)}`);
  if (!response.ok) {
    throw new Error(`cannot fetch ${file}: ${response.status}`);
  }
  $('kif').value = await response.text();
  loadGame();
}

async function main() {
  await init();
  $('version').textContent = `v${version()}`;
  $('load').addEventListener('click', loadGame);
  $('undo').addEventListener('click', undo);
  $('advance').addEventListener('click', advance);
  $('restart').addEventListener('click', restart);

  const picker = $('picker');
  const games = await fetch('games/index.json').then((r) => (r.ok ? r.json() : []));
  picker.append(el('option', '(your own: paste below)', { value: '' }));
  for (const g of games) {
    picker.append(el('option', g.title, { value: g.file }));
  }
  picker.addEventListener('change', () => {
    if (picker.value) {
      pickGame(picker.value).catch((e) => showDiagnostics(e));
    }
  });
  // Edited text is no longer the picked example.
  $('kif').addEventListener('input', () => {
    picker.value = '';
  });
  const first = games.find((g) => g.name === 'ticTacToe') ?? games[0];
  if (first) {
    picker.value = first.file;
    await pickGame(first.file);
  }
  document.body.dataset.ready = 'true';
}

main().catch((error) => {
  $('load-status').textContent = `failed to start: ${error.message}`;
  console.error(error);
});
