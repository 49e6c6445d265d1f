// The gdlkit JavaScript API, search area: one search (best move, value,
// the lecture trace), a match between players, and a player that picks
// moves. A thin layer over crate/wasm/src/wasm/search.rs (docs/search.md):
// options are passed through as they are, so an option the wasm binding
// learns works here unchanged (and a misspelt one is a TypeError there).

import { Game } from './api.js';
import { needReady, needString, needStrings, optionalString, wasm } from './wasm.js';

/**
 * Searches a game from its initial state: the JSON of `gdlkit search
 * --format json` (`value`, `bestMove`, `solved`, `depth`, `stats`, and
 * with `trace: true` the `events` and `states`).
 */
export function search(kif, options) {
  needReady();
  needString(kif, 'search(kif, options): kif');
  return wasm.search(kif, options);
}

/** Searches an abstract tree such as `((3 12 8) (2 4 6) (14 5 2))`: same options and result as `search`, plus `tree`. */
export function searchTree(tree, options) {
  needReady();
  needString(tree, 'searchTree(tree, options): tree');
  return wasm.searchTree(tree, options);
}

/**
 * An abstract tree with each node's children in `ordering` ("given",
 * "reversed", "best", "worst"): `{tree, text, labels}` (`labels`: the
 * original child numbers per node).
 */
export function reorderTree(tree, ordering) {
  needReady();
  needString(tree, 'reorderTree(tree, ordering): tree');
  return wasm.reorderTree(tree, String(ordering));
}

/** An abstract tree such as `((3 12 8) (2 4 6) (14 5 2))` as nested arrays; a TypeError says what is wrong. */
export function parseTree(tree) {
  needReady();
  needString(tree, 'parseTree(tree): tree');
  return wasm.parseTree(tree);
}

/** A player spec parsed by the engine: `{name, options}` (`"best-first"` is `bestfirst`). */
export function parsePlayerSpec(spec) {
  needReady();
  return wasm.parsePlayerSpec(playerSpec(spec));
}

/** The players and search algorithms: `[{name, description}]`. */
export function players() {
  needReady();
  return wasm.players();
}

/** The player used unless told otherwise (`gdlkit serve`'s, `new Player(kif)`'s, the page's): `"mcts-solver"`. */
export function defaultPlayer() {
  needReady();
  return wasm.defaultPlayer();
}

/** The evaluation functions for `heuristic=`: `[{name, label, description, distance, explain}]`. */
export function heuristics() {
  needReady();
  return wasm.heuristics();
}

/**
 * A player spec as the CLI writes it: a string such as
 * `"alphabeta:ms=200,heuristic=fuzzy"` is kept; an object `{name, ...options}`
 * becomes `name:key=value,...` (the options are not interpreted here).
 */
export function playerSpec(spec) {
  if (typeof spec === 'string') {
    return spec;
  }
  if (spec === null || typeof spec !== 'object' || typeof spec.name !== 'string') {
    throw new TypeError('a player is a spec string such as "mcts:ms=200" or an object {name, ...options}');
  }
  const { name, ...options } = spec;
  const parts = Object.entries(options)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  return parts.length ? `${name}:${parts.join(',')}` : name;
}

/** The engine choice that builds a game's engine again: a hybrid is what `auto` builds. */
function engineOf(game) {
  const { name } = game.engine;
  return name === 'hybrid' ? 'auto' : name;
}

/**
 * Plays a match: one player per role (specs or `{name, ...options}`),
 * roles rotated from game to game. Options `{games, seed, maxSteps}`, and
 * `onGame(record)`, called after each game. Returns the JSON of `gdlkit
 * match --format json`.
 */
export function runMatch(kif, players, options) {
  needReady();
  needString(kif, 'runMatch(kif, players, options): kif');
  if (!Array.isArray(players)) {
    throw new TypeError('runMatch(kif, players, options): players must be an array');
  }
  const specs = players.map(playerSpec);
  if (typeof options?.onGame === 'function') {
    const { onGame, ...rest } = options;
    return wasm.runMatchWithProgress(kif, specs, rest, onGame);
  }
  return wasm.runMatch(kif, specs, options);
}

const freed = () => new TypeError('gdlkit: this Player was freed');

/**
 * A player (random, legal, minimax, alphabeta, bestfirst, mcts, with its
 * budget and options) with its own copy of the game: `selectMove(fluents,
 * role)` returns its move in that state. Free it with free() (or `using`).
 */
export class Player {
  #player;
  #roles;
  #game;

  /**
   * `spec`: `"mcts:ms=200"` or `{name: 'alphabeta', ms: 200}` (default: `defaultPlayer()`, the player of `gdlkit serve`); `seed`
   * for the random parts; `engine`: "auto" (default), "fast" or "interpreter"; `solution`: what a
   * searching player solves at the start and then plays where it settles the move (`"auto"`, the
   * default: a second and 20,000 states; `{seconds, maxStates}`; the text of a
   * solution file; `false`: none). `player.solution` is the solve's summary.
   */
  constructor(kif, spec = undefined, { seed, engine, solution = 'auto' } = {}) {
    needReady();
    spec ??= wasm.defaultPlayer();
    if (kif instanceof Game) {
      // A Game: its text and engine; `selectMove` then takes its state handles.
      this.#game = kif;
      this.#roles = kif.roles();
      this.#player = new wasm.SearchPlayer(kif.text, playerSpec(spec), seed, optionalString(engine, 'Player option engine') ?? engineOf(kif));
    } else {
      needString(kif, 'new Player(kif, spec): kif (a string or a Game)');
      const game = new wasm.Game(kif); // only for the role names
      try {
        this.#roles = game.roles();
      } finally {
        game.free();
      }
      this.#player = new wasm.SearchPlayer(kif, playerSpec(spec), seed, optionalString(engine, 'Player option engine'));
    }
    try {
      this.solution = this.#startSolution(solution);
    } catch (e) {
      this.free();
      throw e;
    }
  }

  #startSolution(solution) {
    if (solution === false) return null;
    if (solution === 'auto') return this.#player.solve(undefined);
    if (typeof solution === 'string') return this.#player.loadSolution(solution);
    if (solution !== null && typeof solution === 'object') return this.#player.solve(solution);
    throw new TypeError('Player option solution: "auto", false, {seconds, maxStates} or a solution file\'s text');
  }

  /** Whether the last `selectMove` played the solution's move (no search ran). */
  get lastMoveSolved() {
    return this.#p().lastMoveSolved();
  }

  #p() {
    if (!this.#player) {
      throw freed();
    }
    return this.#player;
  }

  /** The player's name with its options, e.g. `alphabeta(ms=200, heuristic=fuzzy)`. */
  get name() {
    return this.#p().name();
  }

  /**
   * The move (term text) of `role` (index or name) in a state: a state
   * handle of the Game the player was made from, or the state's fluents
   * (e.g. `game.fluents(state)`).
   */
  selectMove(state, role = 0) {
    const p = this.#p();
    let fluents = state;
    if (typeof state === 'number' && this.#game) {
      fluents = this.#game.fluents(state);
    } else if (!Array.isArray(state)) {
      throw new TypeError(
        this.#game
          ? 'selectMove(state, role): state must be a state handle of the Game or an array of fluents'
          : 'selectMove(fluents, role): fluents must be an array of strings (state handles need new Player(game, spec))',
      );
    }
    return p.selectMove(needStrings(fluents, 'selectMove(fluents, role): fluents'), this.#roleIndex(role));
  }

  /** A role given by index or name: its index. */
  #roleIndex(role) {
    if (typeof role !== 'number') {
      const index = this.#roles.indexOf(String(role).toLowerCase());
      if (index < 0) {
        throw new RangeError(`unknown role ${role}: the roles are ${this.#roles.join(', ')}`);
      }
      return index;
    }
    if (!Number.isInteger(role) || role < 0) {
      throw new RangeError(`role index ${role} out of range: the game has ${this.#roles.length} roles`);
    }
    return role;
  }

  /**
   * GDL-II: tells the player one step as `role` (index or name) saw it: the
   * move played for it and its percepts (e.g. from `game.percepts`).
   * `hyperplay` keeps its belief with these, as in a GGP match; other
   * players ignore them. `newGame()` forgets them.
   */
  observe(role, move, percepts = []) {
    const p = this.#p();
    if (typeof move !== 'string') {
      throw new TypeError('observe(role, move, percepts): move must be a string');
    }
    return p.observe(this.#roleIndex(role), move, needStrings(percepts, 'observe(role, move, percepts): percepts'));
  }

  /** The state machine the player runs on: "fast" or "interpreter". */
  get engine() {
    return this.#p().engine();
  }

  /** Counters of the last selectMove: `{nodes, leaves, cutoffs, ttHits, playouts, depth, elapsedMs}`. */
  lastStats() {
    return this.#p().lastStats();
  }

  /** Starts a new game (players may keep tables between moves of one game). */
  newGame() {
    this.#p().newGame();
  }

  get freed() {
    return !this.#player;
  }

  /** Releases the player (idempotent). */
  free() {
    const p = this.#player;
    this.#player = undefined;
    p?.free();
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Player.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}
