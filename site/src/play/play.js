// The play view: any game, each role played by a human (clicks), the
// engine (a search player in the `think` worker, with a progress bar and a
// stop button) or random moves. Move list with undo / redo / restart and
// jumping to any step; the goals at the end. The game's states live in the
// `game` worker and are addressed by handle; this module only shows them.
// GDL-II games (hidden.js): the chance role's moves are drawn by the engine,
// each human seat sees only its own moves and percepts (a cover between two
// human seats), engine seats are told only theirs, and everything is
// revealed at the end.

import { canShareMemory } from '../engine/start.js';
import { autoCores, DEFAULT_PLAYER, engine, engineEvents, features, specOnThreads, terminateThinkers, thinkers, thinkThreads } from '../engine/client.js';
import { parallelBestMove, parallelEnsembleMove } from '../../../js/parallel.js';
import { movesFromText, movesToText } from '../state.js';
import { h, formatMs, select } from '../dom.js';
import { WhyPanel } from './why.js';
import { cellKey, renderBoard, renderFluentList } from './board.js';
import { formatValue, heatColor, overlayOf } from './overlay.js';
import { PerfectPlay, solvedMarks, solvedText } from './perfect.js';
import { SymbolicSolve } from './symbolic.js';
import { beliefPanel, chanceDrawn, chanceText, coverPanel, revealPanel, seatPanel, seenBy } from './hidden.js';

/** Cores for MCTS, alpha-beta and the ensemble: `auto` (all of this machine's, at most 8) or a number. */
export const CORES = [
  ['auto', 'cores: auto'],
  ['1', '1 core'],
  ['2', '2 cores'],
  ['4', '4 cores'],
  ['8', '8 cores'],
];
export const BUDGETS = [
  [100, '0.1 s'],
  [250, '0.25 s'],
  [500, '0.5 s'],
  [1000, '1 s'],
  [2000, '2 s'],
  [5000, '5 s'],
];

/**
 * The engine a seat gets unless told otherwise: the engine's default
 * player (`defaultPlayer()`, `gdlkit serve`'s: MCTS-Solver, one tree per
 * worker on all cores), one second a move.
 */
export const DEFAULT_ENGINE = { algorithm: DEFAULT_PLAYER, ms: 1000, cores: 'auto' };

/**
 * A player of the view, {kind: 'human'|'engine'|'random', algorithm, ms,
 * cores}, from a spec parsed by the engine's registry (`site.players`:
 * `{name, options}`, `{name: 'human'}` or `{error}`).
 */
function playerFromParsed(parsed) {
  const name = parsed?.name;
  if (!name || name === 'human') return { kind: 'human', ...DEFAULT_ENGINE };
  if (name === 'random') return { kind: 'random', ...DEFAULT_ENGINE };
  const ms = Number(parsed.options?.ms ?? DEFAULT_ENGINE.ms);
  return {
    kind: 'engine',
    algorithm: name,
    ms: Number.isFinite(ms) ? Math.min(Math.max(ms, 10), 60000) : DEFAULT_ENGINE.ms,
    cores: parsed.options?.cores ?? defaultCores(name),
  };
}

/**
 * The engines the view offers: the registry's players that search (with a
 * time budget `ms`); `random` is the kind "Random", `legal` takes no budget.
 */
export function engineChoices(registry) {
  return registry.filter((p) => p.name !== 'random' && p.name !== 'legal');
}

/**
 * The default cores: all for MCTS; one for alpha-beta, whose workers in
 * the page each keep their own table (no shared memory), which gains
 * little (BENCHMARKS.md, "Parallel search").
 */
function defaultCores(algorithm) {
  return algorithm === 'alphabeta' ? '1' : 'auto';
}

export function playerText(p) {
  if (p.kind === 'chance') return 'random';
  // The default cores are not written.
  const cores = PARALLEL.has(p.algorithm) && p.cores && p.cores !== defaultCores(p.algorithm) ? `,cores=${p.cores}` : '';
  return p.kind === 'engine' ? `${p.algorithm}:ms=${p.ms}${cores}` : p.kind;
}

/** The algorithms that think on several workers (root-parallel MCTS and MCTS-Solver, lazy-SMP alpha-beta, the ensemble's members). */
const PARALLEL = new Set(['mcts', 'mcts-solver', 'alphabeta', 'ensemble']);

/** How many workers an engine player thinks on. */
function coresOf(p) {
  if (!PARALLEL.has(p.algorithm)) return 1;
  const n = p.cores === 'auto' || !p.cores ? autoCores() : Number(p.cores);
  return Number.isFinite(n) ? Math.min(Math.max(n, 1), 16) : 1;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class PlayView {
  /**
   * `root`: the element to render into. `onChange()` is called when the
   * history, the cursor or the players change (for autosave and the URL).
   */
  constructor(root, { onChange, onShowTree, compact = false } = {}) {
    this.root = root;
    this.onChange = onChange ?? (() => {});
    this.onShowTree = onShowTree;
    this.compact = compact;
    this.session = null;
    this.players = [];
    this.paused = false;
    this.epoch = 0;
    this.thinking = null;
    this.selectedCell = null;
    this.orientation = { transpose: false, flip: false };
    this.lastAuto = 0;
    this.message = '';
    this.build();
    // The game worker died (a trap, out of memory): it held this view's
    // game, so load it again and replay the moves.
    engineEvents.addEventListener('restarted', (event) => {
      if (event.detail.worker === 'game' && this.session) this.recover(event.detail.message).catch(() => {});
    });
  }

  /**
   * Loads the game again into a fresh `game` worker and replays the moves
   * played, keeping the step shown: the user goes on where they were.
   * Concurrent calls share one reload.
   */
  recover(reason) {
    const sess = this.session;
    if (!sess) return Promise.resolve();
    this.recovering ??= (async () => {
      const loaded = await engine().game.call('load', { text: sess.text });
      const r = sess.moves.length ? await engine().game.call('replayMoves', { id: loaded.id, moves: sess.moves }) : { states: [loaded.initial] };
      if (this.session !== sess) return;
      sess.id = loaded.id;
      sess.states = r.states;
      sess.moves = sess.moves.slice(0, r.states.length - 1);
      sess.cursor = Math.min(sess.cursor, r.states.length - 1);
      this.stopThinking();
      this.message = `The engine stopped unexpectedly (${reason ?? 'a fault'}) and was restarted; the game and its ${sess.moves.length} move${sess.moves.length === 1 ? '' : 's'} were reloaded.`;
      // A move being made goes on by itself (advance retries it).
      if (this.advancing) this.render();
      else this.enter();
    })().finally(() => {
      this.recovering = null;
    });
    return this.recovering;
  }

  /** A call into the `game` worker that, when the worker died, reloads the game and tries once more (`args()` is read again). */
  async gameCall(op, args) {
    if (this.recovering) await this.recovering.catch(() => {});
    try {
      return await engine().game.call(op, args());
    } catch (e) {
      if (e?.name !== 'EngineRestarted' && e?.name !== 'GdlStaleGame') throw e;
      await this.recover(e.cause?.message ?? e.message);
      return engine().game.call(op, args());
    }
  }

  // ---------------------------------------------------------------- layout

  build() {
    this.status = h('p', { class: 'play-status', role: 'status', 'aria-live': 'polite' });
    this.progress = h('div', { class: 'think', hidden: true },
      h('progress', { max: 1, value: 0, 'aria-label': 'engine thinking' }),
      h('span', { class: 'think-label' }),
      h('button', { type: 'button', class: 'danger', text: 'Stop', on: { click: () => this.stop() } }));
    this.boardBox = h('div', { class: 'board-box' });
    // What an explanation's colours and marks mean (the Why? table says it in words).
    this.legendBox = h('div', { class: 'board-legend', hidden: true, 'aria-hidden': 'true' });
    this.movesBox = h('div', { class: 'human-moves' });
    this.fluentsBox = h('div', { class: 'fluents-box' });
    this.goalsBox = h('div', { class: 'goals', hidden: true });
    this.revealBox = h('div', { class: 'reveal-box' });
    this.historyList = h('ol', { class: 'history', 'aria-label': 'moves played' });
    this.rolesBox = h('div', { class: 'roles' });
    const btn = (text, title, onclick, key) =>
      h('button', { type: 'button', text, title, 'aria-keyshortcuts': key, on: { click: onclick } });
    this.undoBtn = btn('↶ Undo', 'Undo (back to your last turn) — Ctrl+Z', () => this.undo(), 'Control+Z');
    this.redoBtn = btn('Redo ↷', 'Redo — Ctrl+Y', () => this.redo(), 'Control+Y');
    this.restartBtn = btn('⟲ Restart', 'Restart the game', () => this.restart());
    this.pauseBtn = btn('Pause', 'Pause or continue the engine and random players', () => this.togglePause());
    this.continueBtn = btn('Continue from here', 'Drop the later moves and go on from this step', () => this.continueHere());
    this.flipBtn = btn('⇅ Flip', 'Flip the board upside down', () => this.reorient('flip'));
    this.transposeBtn = btn('⤡ Transpose', 'Swap the board’s rows and columns', () => this.reorient('transpose'));
    this.treeBtn = this.onShowTree ? btn('Search tree of this position', 'Open the search-tree view at the position shown', () => this.onShowTree()) : null;
    const controls = h('div', { class: 'row controls' }, this.undoBtn, this.redoBtn, this.restartBtn, this.pauseBtn, this.continueBtn, this.treeBtn);
    this.orientBox = h('div', { class: 'row orient' }, this.flipBtn, this.transposeBtn);
    const historyBox = h('section', { class: 'panel history-panel', 'aria-label': 'Move list' },
      h('h3', { text: 'Moves' }), this.historyList, controls);
    this.perfect = new PerfectPlay(() => this.render());
    this.symbolic = new SymbolicSolve();
    const main = h('div', { class: 'play-main' },
      this.status, this.progress, this.perfect.root, this.symbolic.root, this.boardBox, this.legendBox, this.orientBox, this.movesBox, this.goalsBox, this.revealBox, this.fluentsBox);
    this.why = new WhyPanel(() => this.explainHere(), (e, planMove) => this.showExplanation(e, planMove));
    const side = h('div', { class: 'play-side' }, h('section', { class: 'panel', 'aria-label': 'Players' }, h('h3', { text: 'Players' }), this.rolesBox), historyBox, this.why.root);
    this.root.replaceChildren(h('div', { class: `play${this.compact ? ' compact' : ''}` }, main, side));
    this.root.addEventListener('keydown', (event) => {
      if (event.target.closest?.('input, select, textarea')) return;
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z' && !event.shiftKey) {
        event.preventDefault();
        this.undo();
      } else if ((event.ctrlKey || event.metaKey) && (event.key.toLowerCase() === 'y' || (event.key.toLowerCase() === 'z' && event.shiftKey))) {
        event.preventDefault();
        this.redo();
      }
    });
  }

  // ------------------------------------------------------------ the game

  /**
   * Loads a game text and replays `moves` (joint moves) from its initial
   * state, stopping at the first that is not legal any more. `players`: per
   * role text (`human`, `random`, `alphabeta:ms=500`). Throws the engine's
   * error (with `diagnostics`) when the game does not load.
   */
  async load(text, { moves = [], cursor, players, paused = false } = {}) {
    this.stopThinking();
    const epoch = ++this.epoch;
    const old = this.session;
    this.features = await features();
    const loaded = await engine().game.call('load', { text });
    if (epoch !== this.epoch) return;
    if (old) engine().game.call('unload', { id: old.id }).catch(() => {});
    // `seed`: the random player's seed (the worker's id of this game, new for every load).
    const session = { text, id: loaded.id, seed: loaded.id, roles: loaded.roles, states: [loaded.initial], moves: [], cursor: 0, gdl2: Boolean(loaded.gdl2), chance: loaded.chance ?? null };
    let replayError = null;
    if (moves.length) {
      const r = await engine().game.call('replayMoves', { id: loaded.id, moves });
      if (epoch !== this.epoch) return;
      session.states = r.states;
      session.moves = moves.slice(0, r.states.length - 1);
      if (r.error) replayError = `${moves.length - session.moves.length} of the saved moves no longer apply: ${r.error.message}`;
    }
    session.cursor = Math.min(cursor ?? session.states.length - 1, session.states.length - 1);
    session.revealed = session.states[session.states.length - 1].terminal;
    this.session = session;
    this.perfect.setGame(text, session.roles);
    this.symbolic.setGame(text);
    // GDL-II: engines play `hyperplay`, which is told only its own moves and percepts.
    const algorithm = session.gdl2 ? 'hyperplay' : DEFAULT_ENGINE.algorithm;
    const engineDefault = this.features.searchPlayer ? `${algorithm}:ms=${DEFAULT_ENGINE.ms}` : 'random';
    // GDL-II's `random` role is chance: its moves are drawn uniformly (the
    // engine's `random` player); the first other role is the human's.
    const firstSeat = session.roles.findIndex((role) => role !== 'random');
    const seatDefault = (role, r) => (role === 'random' ? 'random' : r === firstSeat || session.roles.length === 1 ? 'human' : engineDefault);
    const specs = session.roles.map((role, r) => (r === session.chance ? 'random' : (players?.[r] ?? seatDefault(role, r))));
    // The specs are parsed by the engine's one registry of players (in the game worker).
    const { registry, parsed } = await engine().game.call('players', { specs });
    if (epoch !== this.epoch) return;
    this.algorithms = engineChoices(registry);
    const unknown = parsed.map((p, r) => (p.error ? `${specs[r]}: ${p.error}` : null)).filter(Boolean);
    this.players = parsed.map((p) => playerFromParsed(p.error ? { name: DEFAULT_ENGINE.algorithm } : p));
    if (unknown.length && !replayError) replayError = `Player not known, ${DEFAULT_ENGINE.algorithm} plays instead: ${unknown.join('; ')}`;
    if (!this.features.searchPlayer) {
      // A build without the search players: engines play random moves.
      this.players = this.players.map((p) => (p.kind === 'engine' ? { ...p, kind: 'random' } : p));
    }
    // GDL-II's chance role is no seat: the engine draws its moves.
    if (session.chance !== null) this.players[session.chance] = { ...this.players[session.chance], kind: 'chance' };
    this.uncovered = null;
    this.paused = paused;
    this.message = replayError ?? '';
    this.renderRoles();
    this.enter();
    return session;
  }

  get current() {
    return this.session?.states[this.session.cursor];
  }

  /** The fluents of the position shown (for the search tree view). */
  currentFluents() {
    return this.current?.fluents ?? null;
  }

  serialize() {
    if (!this.session) return null;
    return {
      moves: this.session.moves,
      cursor: this.session.cursor,
      players: this.players.map(playerText),
    };
  }

  restart() {
    if (!this.session) return;
    this.stopThinking();
    this.session.cursor = 0;
    this.session.states = this.session.states.slice(0, 1);
    this.session.moves = [];
    this.session.revealed = false;
    this.uncovered = null;
    this.paused = false;
    this.message = '';
    this.enter();
  }

  /** Whether a human has a choice in state `i`. */
  humanTurn(i) {
    const s = this.session.states[i];
    return !s.terminal && this.players.some((p, r) => p.kind === 'human' && s.legal[r].length > 1);
  }

  undo() {
    if (!this.session || this.session.cursor === 0) return;
    this.stopThinking();
    let i = this.session.cursor - 1;
    if (this.players.some((p) => p.kind === 'human')) {
      while (i > 0 && !this.humanTurn(i)) i--;
    }
    this.session.cursor = i;
    this.enter();
  }

  redo() {
    if (!this.session || this.session.cursor >= this.session.states.length - 1) return;
    this.stopThinking();
    let i = this.session.cursor + 1;
    if (this.players.some((p) => p.kind === 'human')) {
      while (i < this.session.states.length - 1 && !this.humanTurn(i)) i++;
    }
    this.session.cursor = i;
    this.enter();
  }

  goto(i) {
    if (!this.session) return;
    this.stopThinking();
    this.session.cursor = Math.max(0, Math.min(i, this.session.states.length - 1));
    this.enter();
  }

  continueHere() {
    if (!this.session) return;
    const s = this.session;
    s.states = s.states.slice(0, s.cursor + 1);
    s.moves = s.moves.slice(0, s.cursor);
    this.paused = false;
    this.enter();
  }

  togglePause() {
    this.paused = !this.paused;
    if (this.paused) this.stopThinking();
    this.enter();
  }

  setPlayer(role, player) {
    this.players[role] = player;
    this.stopThinking();
    this.onChange();
    this.enter();
  }

  reorient(which) {
    this.orientation = { ...this.orientation, [which]: !this.orientation[which] };
    this.renderState();
    this.onChange();
  }

  /** Stops the engine (hard: the worker is terminated) and pauses automatic moves. */
  stop() {
    if (this.thinking) {
      this.stopThinking();
      this.paused = true;
      this.message = 'Stopped. Press Continue to let the engine think again, or make the move yourself.';
      this.enter();
    }
  }

  stopThinking() {
    if (this.thinking) {
      const t = this.thinking;
      this.thinking = null;
      clearInterval(t.timer);
      terminateThinkers();
    }
    this.progress.hidden = true;
  }

  /** A new position is shown: render it and let the non-human players move. */
  /** The "Why?" panel: each legal move's value in the position shown. */
  explainHere() {
    if (!this.session) return;
    this.why.explain(this.session.text, this.session.moves.slice(0, this.session.cursor));
  }

  /** The Why? panel shows `e` (null: nothing): draw it on the board, `planMove`'s relaxed plan numbered. */
  showExplanation(e, planMove) {
    this.explained = e && this.session ? { e, planMove, cursor: this.session.cursor } : null;
    if (this.session) this.renderState();
  }

  /** The overlay of the explanation shown, when it is of the position shown. */
  overlay() {
    const x = this.explained;
    if (!x || !this.session || x.cursor !== this.session.cursor) return null;
    return overlayOf(x.e, { distance: this.why.isDistance(x.e), planMove: x.planMove });
  }

  /** The solved position shown (Perfect play on, the game solved), or null. */
  solvedPosition() {
    return this.perfect.positionOf(this.current);
  }

  /** The explanation's overlay with the Perfect-play marks added (null: neither). */
  withSolved(why) {
    const position = this.solvedPosition();
    if (!position) return why;
    const marks = solvedMarks(position, this.current.cells, this.session.roles[position.role] ?? '');
    return { heat: new Map(), plan: new Map(), chosen: new Set(), runnerUp: new Set(), ...why, solved: marks };
  }

  /** The legend under an explained board (the table says the same in words). */
  renderLegend(overlay) {
    this.legendBox.hidden = !overlay;
    if (!overlay) return;
    const { e } = this.explained;
    const swatch = (color) => h('span', { class: 'swatch', style: { background: color } });
    const parts = [h('span', {}, swatch(heatColor(0)), swatch(heatColor(0.5)), swatch(heatColor(1)), `${e.heuristic} after each move (${this.why.isDistance(e) ? 'lower' : 'higher'} is better)`)];
    if (e.chosen) parts.push(h('span', { text: `solid outline: best ${e.chosen}${e.runnerUp ? `, dashed: runner-up ${e.runnerUp}` : ''}` }));
    if (overlay.planGoal) parts.push(h('span', { text: `numbers: relaxed plan after ${overlay.planMove} to goal ${overlay.planGoal.goal} (h_FF ${formatValue(overlay.planGoal.hFf)})` }));
    this.legendBox.replaceChildren(...parts);
  }

  enter() {
    this.epoch += 1;
    this.choices = this.session ? this.session.roles.map(() => null) : [];
    this.selectedCell = null;
    this.why?.clear();
    this.why?.ensureLoaded();
    this.render();
    this.onChange();
    this.schedule();
  }

  atEnd() {
    return this.session && this.session.cursor === this.session.states.length - 1;
  }

  async schedule() {
    const s = this.current;
    if (!s || s.terminal || !this.atEnd()) return;
    if (s.legal.some((moves) => moves.length === 0)) return;
    const epoch = this.epoch;
    // Forced moves (a single legal move, e.g. `noop`) are chosen at once.
    this.players.forEach((_p, r) => {
      if (s.legal[r].length === 1) this.choices[r] = s.legal[r][0];
    });
    for (let r = 0; r < this.players.length; r++) {
      if (this.choices[r] !== null || this.players[r].kind === 'human' || this.paused) continue;
      const kind = this.players[r].kind;
      const move = kind === 'chance' ? await this.chanceMove(r, epoch) : kind === 'random' ? await this.randomMove(r, epoch) : await this.think(r, epoch);
      if (epoch !== this.epoch) return;
      if (move === null) return;
      this.choices[r] = move;
    }
    if (epoch !== this.epoch) return;
    if (this.choices.every((c) => c !== null)) {
      const humanChose = this.players.some((p, r) => p.kind === 'human' && s.legal[r].length > 1);
      if (!humanChose) {
        // Keep automatic play watchable: at least 300 ms between automatic steps.
        const wait = 300 - (performance.now() - this.lastAuto);
        if (wait > 0) await sleep(wait);
        if (epoch !== this.epoch) return;
        this.lastAuto = performance.now();
      }
      await this.advance(epoch);
    } else {
      this.renderMoves();
    }
  }

  /**
   * The random player's move: the engine's `random` player (seeded, in the
   * `think` worker, which keeps it and its generator from move to move).
   */
  async randomMove(role, epoch) {
    const s = this.current;
    try {
      const r = await engine().think.call('bestMove', { kif: this.session.text, spec: 'random', fluents: s.fluents, role, seed: this.session.seed });
      return epoch === this.epoch ? r.move : null;
    } catch (e) {
      if (epoch === this.epoch && e.name !== 'Cancelled') {
        this.paused = true;
        this.message = `The random player failed for ${this.session.roles[role]}: ${e.message}`;
        this.render();
      }
      return null;
    }
  }

  /**
   * GDL-II: the chance role's move, drawn by the engine (`drawChance`)
   * from a generator seeded by the game's seed and the step: the same
   * draws when the game is played again from the same load.
   */
  async chanceMove(role, epoch) {
    const sess = this.session;
    try {
      const move = await this.gameCall('drawChance', () => ({ id: sess.id, handle: this.current.handle, seed: sess.seed * 1024 + sess.cursor }));
      return epoch === this.epoch ? move : null;
    } catch (e) {
      if (epoch === this.epoch) {
        this.paused = true;
        this.message = `Cannot draw the move of ${sess.roles[role]}: ${e.message}`;
        this.render();
      }
      return null;
    }
  }

  /**
   * The solution's move for `role` here (Perfect play on and the game
   * solved; Rust's `Solution::solved_move`), or null: then the engine searches.
   */
  async perfectMove(role) {
    if (!this.perfect.on || !this.perfect.done?.summary.complete || this.session.gdl2) return null;
    try {
      const position = await engine().solve.call('solvedPosition', { text: this.session.text, fluents: this.current.fluents });
      return position?.role === role ? position.play : null;
    } catch {
      return null; // the solve worker lost the solution: search instead
    }
  }

  async think(role, epoch) {
    const solved = await this.perfectMove(role);
    if (epoch !== this.epoch) return null;
    if (solved) {
      this.lastStats = { role, name: `${this.players[role].algorithm} (perfect play: the solution's move)` };
      return solved;
    }
    const s = this.current;
    const p = this.players[role];
    const started = performance.now();
    const bar = this.progress.querySelector('progress');
    const label = this.progress.querySelector('.think-label');
    const tick = () => {
      const t = performance.now() - started;
      bar.value = Math.min(t / p.ms, 1);
      label.textContent = `${this.session.roles[role]} (${p.algorithm}) is thinking… ${formatMs(t)} of ${formatMs(p.ms)}`;
    };
    const cores = coresOf(p);
    const params = {
      kif: this.session.text,
      spec: `${p.algorithm}:ms=${p.ms}`,
      fluents: s.fluents,
      role,
      seed: 1, // players are cached by text, spec and seed: one seed keeps their tables
      // GDL-II: the engine is told only what its role saw (its belief is kept from these).
      ...(this.session.gdl2 ? { seen: seenBy(this.session, role) } : {}),
    };
    const workers = () => thinkers(cores).map((w) => ({ run: (kind, args) => w.call(kind, args) }));
    // Where the engine runs on threads (a cross-origin isolated page), one
    // worker thinks on all of them: one tree, one table, as natively.
    const threads = cores > 1 && !this.session.gdl2 ? Math.min(cores, await thinkThreads()) : 1;
    if (epoch !== this.epoch) return null;
    let call;
    if (this.session.gdl2) {
      call = engine().think.call('bestMove', params);
    } else if (threads > 1) {
      call = engine().think.call('bestMove', { ...params, spec: specOnThreads(params.spec, threads) });
    } else if (cores > 1 && p.algorithm === 'ensemble') {
      // The ensemble's members at once, one per Web Worker; Rust chooses.
      call = parallelEnsembleMove(workers(), params).then((r) => ({
        move: r.move,
        player: `ensemble(${p.ms} ms, ${r.parts.length} members on ${cores} workers, followed ${r.heuristic})`,
        stats: { ...r.parts[r.index ?? 0]?.stats, nodes: r.parts.reduce((a, x) => a + (x.stats?.nodes ?? 0), 0) },
      }));
    } else if (cores > 1) {
      // Root-parallel MCTS or lazy-SMP alpha-beta on several Web Workers:
      // they search, Rust merges or chooses.
      call = parallelBestMove(workers(), params).then((r) => ({
        move: r.move,
        player: `${p.algorithm}(${p.ms} ms, ${cores} workers)`,
        stats: {
          ...r.stats[r.worker ?? 0],
          ...(r.merged ? { playouts: r.merged.playouts } : {}),
          nodes: r.stats.reduce((a, x) => a + x.nodes, 0),
        },
      }));
    } else {
      call = engine().think.call('bestMove', params);
    }
    this.thinking = { role, timer: setInterval(tick, 100), call };
    tick();
    this.progress.hidden = false;
    this.renderStatus();
    try {
      const result = await call;
      this.retriedThink = false;
      if (epoch !== this.epoch) return null;
      this.lastStats = { role, ...result.stats, name: result.player };
      return result.move;
    } catch (e) {
      if (epoch === this.epoch && e.name === 'EngineRestarted' && !this.retriedThink) {
        // A thinking worker died: it holds no state of the game, so think once more on a fresh one.
        this.retriedThink = true;
        this.message = `The engine stopped unexpectedly (${e.cause?.message ?? e.message}) and was restarted.`;
        return this.think(role, epoch);
      }
      if (epoch === this.epoch && e.name !== 'Cancelled') {
        this.paused = true;
        this.message = `The engine failed for ${this.session.roles[role]}: ${e.message}`;
        this.render();
      }
      return null;
    } finally {
      if (this.thinking?.call === call) {
        clearInterval(this.thinking.timer);
        this.thinking = null;
        this.progress.hidden = true;
      }
    }
  }

  async advance(epoch = this.epoch) {
    const sess = this.session;
    const joint = [...this.choices];
    let next;
    this.advancing = true;
    try {
      next = await this.gameCall('next', () => ({ id: sess.id, handle: this.current.handle, joint }));
    } catch (e) {
      if (epoch === this.epoch) {
        this.message = `Cannot make the move: ${e.message}`;
        this.render();
      }
      return;
    } finally {
      this.advancing = false;
    }
    if (epoch !== this.epoch || sess !== this.session) return;
    sess.states = sess.states.slice(0, sess.cursor + 1);
    sess.moves = sess.moves.slice(0, sess.cursor);
    sess.states.push(next);
    sess.moves.push(joint);
    sess.cursor += 1;
    if (next.terminal) sess.revealed = true;
    this.message = '';
    this.enter();
  }

  /** A human chooses `move` for `role`. */
  choose(role, move) {
    const s = this.current;
    if (!s || s.terminal) return;
    if (!this.atEnd()) {
      // Playing from an earlier step drops the later moves.
      this.session.states = this.session.states.slice(0, this.session.cursor + 1);
      this.session.moves = this.session.moves.slice(0, this.session.cursor);
    }
    this.choices[role] = move;
    this.selectedCell = null;
    if (this.paused && this.players.some((p, r) => p.kind !== 'human' && this.choices[r] === null)) {
      this.paused = false;
    }
    if (this.choices.every((c) => c !== null)) {
      this.advance();
    } else {
      this.render();
      this.schedule();
    }
  }

  // -------------------------------------------------------------- render

  render() {
    if (!this.session) return;
    this.renderStatus();
    this.renderState();
    this.renderMoves();
    this.renderHistory();
    this.renderGoals();
    const s = this.session;
    this.undoBtn.disabled = s.cursor === 0;
    this.redoBtn.disabled = s.cursor >= s.states.length - 1;
    this.continueBtn.hidden = this.atEnd();
    // GDL-II before the end: nothing that reads the true state (Why?, Perfect play, the search tree).
    const hidden = this.hidden();
    if (this.treeBtn) this.treeBtn.hidden = hidden || s.cursor === 0 || this.current.terminal;
    this.why.root.style.display = this.perfect.root.style.display = this.symbolic.root.style.display = hidden ? 'none' : '';
    this.revealBox.replaceChildren(...(s.gdl2 && s.revealed ? [revealPanel(s)] : []));
    const automatic = this.players.some((p) => p.kind !== 'human');
    this.pauseBtn.hidden = !automatic || this.current.terminal;
    this.pauseBtn.textContent = this.paused ? 'Continue' : 'Pause';
    this.pauseBtn.setAttribute('aria-pressed', String(this.paused));
  }

  /** GDL-II with a human seat, before the end: each seat sees only its own moves and percepts. */
  hidden() {
    const sess = this.session;
    return Boolean(sess?.gdl2 && !sess.revealed && this.players.some((p) => p.kind === 'human'));
  }

  /**
   * The human seat whose view is shown, or null while the cover is up:
   * with two human seats the seat to play must click first, so that
   * neither sees the other's view.
   */
  viewer() {
    const humans = this.players.flatMap((p, r) => (p.kind === 'human' ? [r] : []));
    if (humans.length <= 1) return humans[0] ?? null;
    const s = this.current;
    const toAct = this.atEnd() && !s.terminal ? humans.find((r) => this.choices[r] === null && s.legal[r].length > 1) : undefined;
    this.seatShown = toAct ?? (humans.includes(this.seatShown) ? this.seatShown : humans[0]);
    return this.uncovered === this.seatShown ? this.seatShown : null;
  }

  /** GDL-II: the board is hidden; the seat's own view, or the cover. */
  renderHidden() {
    const v = this.viewer();
    this.orientBox.hidden = true;
    this.renderLegend(null);
    this.fluentsBox.replaceChildren();
    const show = () => {
      this.uncovered = this.seatShown;
      this.render();
    };
    if (v === null) {
      this.boardBox.replaceChildren(coverPanel(this.session.roles[this.seatShown], show));
      return;
    }
    const known = this.knownBy(v);
    this.boardBox.replaceChildren(seatPanel(this.session, v, known.panel));
    known.pending?.then((panel) => {
      const box = this.boardBox.querySelector('.belief-pending');
      if (panel && box) box.replaceWith(panel);
    });
  }

  /**
   * What seat `role` knows at the cursor (the engine's `belief` over its
   * own moves and percepts), kept for the step it was computed for: the
   * panel when known, else a promise of it (null when it failed).
   */
  knownBy(role) {
    const sess = this.session;
    const key = `${sess.id}:${role}:${sess.cursor}:${sess.moves.slice(0, sess.cursor).flat().join(' ')}`;
    if (this.belief?.key === key) return this.belief;
    const name = sess.roles[role];
    const entry = { key, panel: null, pending: null };
    entry.pending = this.gameCall('belief', () => ({ id: sess.id, role, steps: seenBy(sess, role) }))
      .then((view) => {
        entry.panel = beliefPanel(view, name);
        return entry.panel;
      })
      .catch((e) => {
        entry.panel = h('p', { class: 'belief belief-error muted', text: `What ${name} knows could not be worked out: ${e?.message ?? e}` });
        return entry.panel;
      })
      .finally(() => {
        entry.pending = null;
      });
    this.belief = entry;
    return entry;
  }

  renderStatus() {
    const s = this.current;
    const sess = this.session;
    let text;
    if (s.terminal) {
      // Who won is the engine's (describe(state).outcome).
      const o = s.outcome;
      const winners = (o?.winners ?? []).map((r) => sess.roles[r]);
      const outcome = !o ? ''
        : sess.roles.length === 1 ? ` Score ${o.score}.`
          : o.draw ? ' A draw.'
            : ` ${winners.join(' and ')} win${winners.length === 1 ? 's' : ''} (${o.score}).`;
      text = `Game over after ${sess.cursor} step${sess.cursor === 1 ? '' : 's'}.${outcome}`;
    } else if (s.legal.some((m) => m.length === 0)) {
      const stuck = sess.roles.filter((_, r) => s.legal[r].length === 0);
      text = `Step ${sess.cursor + 1}: ${stuck.join(', ')} has no legal move; the game cannot go on.`;
    } else if (!this.atEnd()) {
      text = `Viewing step ${sess.cursor} of ${sess.states.length - 1}. Redo, or make a move to play on from here.`;
    } else if (this.thinking) {
      text = `Step ${sess.cursor + 1}: ${sess.roles[this.thinking.role]} is thinking.`;
    } else {
      const waiting = sess.roles.filter((_, r) => this.choices[r] === null && s.legal[r].length > 1);
      const humans = waiting.filter((role) => this.players[sess.roles.indexOf(role)].kind === 'human');
      if (waiting.length === 0) text = `Step ${sess.cursor + 1}.`;
      else if (this.paused && humans.length === 0) text = `Step ${sess.cursor + 1}: paused (${waiting.join(', ')} to move).`;
      else text = `Step ${sess.cursor + 1}: ${waiting.join(' and ')} to move.`;
    }
    if (this.message) text = `${text} ${this.message}`;
    this.status.textContent = text;
    // Which engine made the last move, on how many workers or threads (on hover).
    const name = this.lastStats?.name;
    // Several workers instead of threads: say why, so the fallback is visible.
    const why = / workers\)/.test(name ?? '') && !canShareMemory() ? ' (one tree per worker: the page is not cross-origin isolated, so its workers cannot share memory)' : '';
    this.status.title = name ? `last engine move: ${name}${why}` : '';
  }

  /** The current state's board, split into cells in Rust (the worker's `board`), or null. */
  get board() {
    return this.current?.board ?? null;
  }

  /** Cells a click can use, per human role still to move: Map cell → [{role, move, cells}]. */
  clickableMoves() {
    const s = this.current;
    const byCell = new Map();
    // Moves name cells of the board (moveCells, in Rust): `x|y`, or `x|y|z` on a layered board.
    if (!this.board || s.terminal || this.hidden()) return byCell;
    this.players.forEach((p, r) => {
      if (p.kind !== 'human' && !(this.paused && p.kind !== 'chance' && s.legal[r].length > 1)) return;
      if (this.choices[r] !== null || s.legal[r].length <= 1) return;
      for (const move of s.legal[r]) {
        // The cells a move names come from the engine (describe: `cells`).
        const named = s.cells?.[move] ?? { cells: [], column: false };
        const cells = named.cells.map(cellKey);
        if (named.column) {
          for (const c of cells) {
            if (!byCell.has(c)) byCell.set(c, []);
            byCell.get(c).push({ role: r, move, cells: [c], column: true });
          }
          continue;
        }
        if (cells.length === 0) continue;
        const first = cells[0];
        if (!byCell.has(first)) byCell.set(first, []);
        byCell.get(first).push({ role: r, move, cells });
      }
    });
    return byCell;
  }

  renderState() {
    const s = this.current;
    if (!s) return;
    if (this.hidden()) {
      this.renderHidden();
      return;
    }
    const solved = this.solvedPosition();
    this.why.setSolved(solved, this.session.roles[solved?.role] ?? '');
    const rest = this.board?.rest ?? [];
    this.boardBox.replaceChildren();
    this.orientBox.hidden = !this.board;
    if (!this.board) this.renderLegend(null);
    if (this.board) {
      const byCell = this.clickableMoves();
      const targets = new Map();
      if (this.selectedCell) {
        for (const m of byCell.get(this.selectedCell) ?? []) {
          if (m.cells.length > 1) targets.set(m.cells[m.cells.length - 1], `move ${m.move}`);
        }
        targets.set(this.selectedCell, 'selected: click again to cancel');
      } else {
        for (const [cell, list] of byCell) {
          targets.set(cell, list.length === 1 && list[0].cells.length === 1 ? `play ${list[0].move}` : `${list.length} move${list.length === 1 ? '' : 's'} from here`);
        }
      }
      const last = this.session.cursor > 0 ? this.session.moves[this.session.cursor - 1] : [];
      const marked = new Set(last.flatMap((m) => (s.cells?.[m]?.column ? [] : (s.cells?.[m]?.cells ?? []).map(cellKey))));
      const why = this.overlay();
      this.renderLegend(why);
      const overlay = this.withSolved(why);
      const board = renderBoard(this.board, {
        overlay,
        orientation: this.orientation,
        targets,
        marked,
        selected: this.selectedCell,
        onCell: (cell) => this.clickCell(cell, byCell),
      });
      board.setAttribute('aria-label', `board (${this.board.fluent})`);
      this.boardBox.append(board);
    }
    const list = this.board ? rest : s.fluents;
    const title = this.board ? 'Other fluents' : 'State';
    this.fluentsBox.replaceChildren(
      list.length || !this.board
        ? h('details', { class: 'fluents-details', open: !this.board || list.length <= 12 },
            h('summary', { text: `${title} (${list.length})` }),
            renderFluentList(list))
        : '',
    );
  }

  clickCell(cell, byCell) {
    if (this.selectedCell) {
      if (cell === this.selectedCell) {
        this.selectedCell = null;
        this.render();
        return;
      }
      const options = (byCell.get(this.selectedCell) ?? []).filter((m) => m.cells[m.cells.length - 1] === cell);
      this.selectedCell = null;
      if (options.length === 1) this.choose(options[0].role, options[0].move);
      else if (options.length > 1) this.offer(options);
      else this.render();
      return;
    }
    const list = byCell.get(cell) ?? [];
    if (list.length === 0) return;
    if (list.every((m) => m.cells.length === 1)) {
      if (list.length === 1) this.choose(list[0].role, list[0].move);
      else this.offer(list);
      return;
    }
    this.selectedCell = cell;
    this.render();
    this.boardBox.querySelector(`[data-cell="${CSS.escape(cell)}"]`)?.focus();
  }

  /** Several moves fit a click: show them as buttons above the move list. */
  offer(options) {
    this.render();
    const box = h('div', { class: 'offer', role: 'group', 'aria-label': 'choose a move' },
      h('span', { text: 'Which move? ' }),
      options.map((m) => h('button', { type: 'button', text: m.move, data: { role: this.session.roles[m.role], move: m.move }, on: { click: () => this.choose(m.role, m.move) } })));
    this.movesBox.prepend(box);
    box.querySelector('button')?.focus();
  }

  renderMoves() {
    const s = this.current;
    const box = this.movesBox;
    box.replaceChildren();
    if (!s || s.terminal) return;
    // When every move a human can make is a click on the board, the list of
    // moves is folded away (still there for the keyboard and screen readers).
    const clickable = new Set([...this.clickableMoves().values()].flat().map((m) => `${m.role}|${m.move}`));
    // GDL-II: only the moves of the seat whose view is shown (none under the cover).
    const hidden = this.hidden();
    const viewer = hidden ? this.viewer() : null;
    const shown = (r) => !hidden || (r === viewer && this.players[r].kind === 'human');
    let folded = Boolean(this.board) && !hidden;
    let count = 0;
    this.session.roles.forEach((_role, r) => {
      const manual = this.players[r].kind === 'human' || (this.paused && this.players[r].kind !== 'human' && this.players[r].kind !== 'chance');
      if (!manual || !shown(r) || s.legal[r].length <= 1 || this.choices[r] !== null) return;
      for (const m of s.legal[r]) {
        count += 1;
        if (!clickable.has(`${r}|${m}`)) folded = false;
      }
    });
    let target = box;
    if (folded && count > 0) {
      target = h('div', { class: 'human-moves' });
      box.append(h('details', { class: 'moves-details' }, h('summary', { text: `The legal moves as a list (${count})` }), target));
    }
    this.session.roles.forEach((role, r) => {
      const p = this.players[r];
      const legal = s.legal[r];
      const manual = p.kind === 'human' || (this.paused && p.kind !== 'human' && p.kind !== 'chance');
      if (!manual || !shown(r) || legal.length <= 1) return;
      const chosen = this.choices[r];
      const group = h('div', { class: 'role-moves', role: 'group', 'aria-label': `moves of ${role}` },
        h('span', { class: 'role-name', text: `${role}${p.kind === 'human' ? '' : ' (paused: move by hand)'}` }));
      const buttons = h('div', { class: 'move-buttons' });
      let filter = null;
      if (legal.length > 24) {
        filter = h('input', { type: 'search', placeholder: 'filter moves', 'aria-label': `filter the moves of ${role}` });
        filter.addEventListener('input', () => {
          const q = filter.value.toLowerCase();
          for (const b of buttons.children) b.hidden = !b.dataset.move.toLowerCase().includes(q);
        });
        group.append(filter);
      }
      const solved = this.solvedPosition();
      const values = new Map(solved?.role === r ? solved.moves.map((m) => [m.move, m]) : []);
      for (const move of legal) {
        const v = values.get(move);
        buttons.append(h('button', {
          type: 'button',
          class: 'move',
          text: move,
          data: { role, move, ...(v ? { solved: v.value ? v.outcome : 'unknown' } : {}) },
          title: v ? `perfect play: ${role} ${solvedText(v, r)}` : undefined,
          'aria-pressed': String(chosen === move),
          disabled: chosen !== null,
          on: { click: () => this.choose(r, move) },
        }));
      }
      group.append(buttons);
      target.append(group);
    });
  }

  renderHistory() {
    const sess = this.session;
    const list = this.historyList;
    list.replaceChildren();
    list.append(h('li', { class: sess.cursor === 0 ? 'current' : '' },
      h('button', { type: 'button', class: 'link', text: 'start', 'aria-current': sess.cursor === 0 ? 'step' : false, on: { click: () => this.goto(0) } })));
    // GDL-II before the end: a seat's own moves only (none under the cover).
    const hidden = this.hidden();
    const viewer = hidden ? this.viewer() : null;
    sess.moves.forEach((joint, i) => {
      // The moves that mattered: of the roles that had a choice, else the non-atomic ones (not `noop`).
      const pick = (keep) => joint.flatMap((m, r) => (keep(m, r) ? [chanceText(sess, m, r)] : []));
      const chosen = pick((_m, r) => sess.states[i].legal[r].length > 1 || sess.roles.length === 1);
      const compound = pick((m) => m.startsWith('('));
      let text = (chosen.length ? chosen : compound.length ? compound : joint).join('  ');
      if (hidden) text = viewer === null ? '…' : joint[viewer];
      const title = hidden ? undefined : joint.map((m, r) => `${sess.roles[r]}: ${m}`).join(', ');
      const current = sess.cursor === i + 1;
      const shown = !hidden && sess.chance !== null && chosen.includes(chanceText(sess, joint[sess.chance], sess.chance));
      list.append(h('li', { class: current ? 'current' : i + 1 > sess.cursor ? 'future' : '' },
        h('button', { type: 'button', class: 'link', text: `${i + 1}. ${text}`, title, 'aria-current': current ? 'step' : false, on: { click: () => this.goto(i + 1) } },
          (shown && chanceDrawn(sess, i)) || '')));
    });
    // Keep the current step in view inside the list only (never scroll the page).
    const cur = list.querySelector('.current');
    if (cur) {
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + cur.offsetHeight - list.clientHeight;
    }
  }

  renderGoals() {
    const s = this.current;
    const box = this.goalsBox;
    box.hidden = !s.terminal;
    if (!s.terminal) return;
    const winners = s.outcome?.winners ?? [];
    box.replaceChildren(h('h3', { text: 'Goals' }),
      h('ul', { class: 'goal-list' }, this.session.roles.map((role, r) => {
        const g = s.goals[r];
        const value = g.length ? g.join(' / ') : 'none';
        const top = g.length > 0 && winners.includes(r);
        return h('li', { class: top ? 'winner' : '', data: { role } }, h('span', { class: 'role-name', text: role }), h('span', { class: 'goal-value', text: value }));
      })));
  }

  renderRoles() {
    const box = this.rolesBox;
    box.replaceChildren();
    this.session.roles.forEach((role, r) => {
      const p = this.players[r];
      if (p.kind === 'chance') {
        box.append(h('div', { class: 'role-row', data: { role } }, h('span', { class: 'role-name', text: role }), h('span', { class: 'muted', text: 'drawn at random by the engine' })));
        return;
      }
      const kind = select([['human', 'Human'], ['engine', 'Engine'], ['random', 'Random']], p.kind, { 'aria-label': `who plays ${role}`, data: { role } });
      if (!this.features?.searchPlayer) {
        kind.options[1].disabled = true;
        kind.options[1].textContent = 'Engine (not in this build)';
      }
      const algorithm = select(this.algorithms.map((a) => [a.name, a.name]), p.algorithm, { 'aria-label': `engine for ${role}` });
      for (const [i, a] of this.algorithms.entries()) algorithm.options[i].title = a.description;
      const budget = select(BUDGETS.map(([v, l]) => [String(v), l]), String(p.ms), { 'aria-label': `time per move for ${role}` });
      const cores = select(CORES, String(p.cores ?? defaultCores(p.algorithm)), { 'aria-label': `cores for ${role}` });
      const update = () => {
        const next = { kind: kind.value, algorithm: algorithm.value, ms: Number(budget.value), cores: cores.value };
        algorithm.hidden = budget.hidden = next.kind !== 'engine';
        cores.hidden = next.kind !== 'engine' || !PARALLEL.has(next.algorithm);
        this.setPlayer(r, next);
      };
      if (!BUDGETS.some(([v]) => v === p.ms)) budget.append(h('option', { value: String(p.ms), text: formatMs(p.ms), selected: true }));
      budget.value = String(p.ms);
      algorithm.hidden = budget.hidden = p.kind !== 'engine';
      cores.hidden = p.kind !== 'engine' || !PARALLEL.has(p.algorithm);
      cores.addEventListener('change', update);
      kind.addEventListener('change', update);
      algorithm.addEventListener('change', update);
      budget.addEventListener('change', update);
      box.append(h('div', { class: 'role-row' }, h('span', { class: 'role-name', text: role }), kind, algorithm, budget, cores));
    });
  }
}

export { movesFromText, movesToText };
