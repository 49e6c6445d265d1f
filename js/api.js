// The gdlkit JavaScript API, core area: validation, formatting, the state
// machine, replay and the CLI. A thin layer over the wasm-bindgen output in
// ../pkg/ (no game logic here). Shared by the browser entry (index.js) and
// the Node entry (node.js), which differ only in where init() finds the
// .wasm file. Documented in docs/js-api.md; types in index.d.ts.

import * as wasm from '../pkg/gdlkit.js';

import { needReady } from './wasm.js';

/** The gdlkit version (the crate version). */
export function version() {
  needReady();
  return wasm.version();
}

// ---------------------------------------------------------------- errors

/**
 * Whether `error` is an error thrown by gdlkit with this `name`
 * ("GdlDiagnosticsError", "GdlMoveError", "GdlEvalError", ...), or any
 * gdlkit error (`name` starting with "Gdl") when no name is given.
 */
export function isGdlError(error, name) {
  if (!(error instanceof Error) && !(error && typeof error === 'object' && typeof error.name === 'string')) {
    return false;
  }
  return name === undefined ? /^Gdl/.test(error.name) : error.name === name;
}

// ------------------------------------------------------ parse and validate

/**
 * Every diagnostic of a game text (syntax, lowering and the static
 * validator: errors, warnings, infos), sorted by position, with 1-based
 * line/column and `from`/`to` as UTF-16 offsets: what `gdlkit check`
 * reports. Never throws for bad game text.
 */
export function check(text) {
  needReady();
  if (typeof text !== 'string') {
    throw new TypeError('check(text): text must be a string');
  }
  return wasm.check(text);
}

/**
 * The canonical layout of a game text (as `gdlkit fmt`; comments kept).
 * Throws a GdlDiagnosticsError when the text has syntax errors.
 */
export function format(text) {
  needReady();
  if (typeof text !== 'string') {
    throw new TypeError('format(text): text must be a string');
  }
  return wasm.format(text);
}

/** Whether a list of diagnostics has an error (warnings do not count). */
export function hasErrors(diagnostics) {
  return diagnostics.some((d) => d.severity === 'error');
}

// ------------------------------------------------------- the state machine

const freed = () => new TypeError('gdlkit: this Game was freed');

/**
 * A game loaded from KIF text. States live inside the game and are named by
 * number handles; release them with dropState/clearStates, and the game
 * with free() (or `using`), since wasm memory is not garbage collected
 * promptly.
 */
export class Game {
  #game;
  #roles;

  /** Throws a GdlDiagnosticsError (with `diagnostics`) when the text has errors. */
  constructor(kif) {
    needReady();
    if (typeof kif !== 'string') {
      throw new TypeError('new Game(kif): kif must be a string');
    }
    this.#game = new wasm.Game(kif);
    this.#roles = this.#game.roles();
  }

  #g() {
    if (!this.#game) {
      throw freed();
    }
    return this.#game;
  }

  /** The role index of a role given by index or name. */
  roleIndex(role) {
    if (typeof role === 'number') {
      if (!Number.isInteger(role) || role < 0 || role >= this.#roles.length) {
        throw new RangeError(`role index ${role} out of range: the game has ${this.#roles.length} roles`);
      }
      return role;
    }
    const i = this.#roles.indexOf(String(role).toLowerCase());
    if (i < 0) {
      throw new RangeError(`unknown role ${role}: the roles are ${this.#roles.join(', ')}`);
    }
    return i;
  }

  /** The roles, in the order of the game's `role` facts. */
  roles() {
    this.#g();
    return [...this.#roles];
  }

  /** A handle to the initial state. */
  initialState() {
    return this.#g().initialState();
  }

  /** The legal moves of a role (index or name), sorted. */
  legalMoves(state, role) {
    return this.#g().legalMoves(state, this.roleIndex(role));
  }

  /** Every legal joint move (one move per role, in role order). */
  legalJointMoves(state) {
    return this.#g().legalJointMoves(state);
  }

  /**
   * A handle to the state after a joint move: one move per role in role
   * order, or an object keyed by role name.
   */
  next(state, moves) {
    const g = this.#g();
    if (moves && !Array.isArray(moves) && typeof moves === 'object') {
      const byName = moves;
      for (const name of Object.keys(byName)) {
        this.roleIndex(name);
      }
      moves = this.#roles.map((r) => {
        const m = byName[r];
        if (typeof m !== 'string') {
          const err = new Error(`no move for role ${r}`);
          err.name = 'GdlMoveError';
          throw err;
        }
        return m;
      });
    }
    return g.next(state, moves);
  }

  isTerminal(state) {
    return this.#g().isTerminal(state);
  }

  /** One goal value per role: the largest derivable one, or null. */
  goals(state) {
    return this.#g().goals(state);
  }

  /** Every derivable goal value per role, sorted. */
  goalValues(state) {
    return this.#g().goalValues(state);
  }

  /** The true fluents of a state, sorted. */
  fluents(state) {
    return this.#g().fluents(state);
  }

  /** Fluents, terminal, legal moves and goal values of a state at once. */
  describe(state) {
    return this.#g().describe(state);
  }

  /** A handle to the state made of exactly these fluents. */
  stateFromFluents(fluents) {
    return this.#g().stateFromFluents(fluents);
  }

  /** Whether two handles denote the same state. */
  sameState(a, b) {
    return this.#g().sameState(a, b);
  }

  /** Releases a state handle (unknown handles are ignored). */
  dropState(state) {
    this.#g().dropState(state);
  }

  /** Releases every state handle of this game. */
  clearStates() {
    this.#g().clearStates();
  }

  /** How many state handles are live. */
  stateCount() {
    return this.#g().stateCount();
  }

  /** Whether free() was called. */
  get freed() {
    return !this.#game;
  }

  /** Releases the game and all its states (idempotent). */
  free() {
    const g = this.#game;
    this.#game = undefined;
    g?.free();
  }
}

if (typeof Symbol.dispose === 'symbol') {
  Game.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}

// ----------------------------------------------------------------- replay

/**
 * Replays joint moves from the initial state: `{roles, steps}` in the
 * conformance format. `moves`: JSON text, a list of joint moves, or
 * `{joint_moves}`. An illegal move throws a GdlMoveError with `step`.
 */
export function replay(kif, moves) {
  needReady();
  return wasm.replay(kif, moves);
}

// -------------------------------------------------------------------- CLI

/**
 * Runs the gdlkit command line (`args` without the program name) over
 * `files` (an object or Map of path to contents, or a function). Returns
 * `{stdout, stderr, code, written}`; nothing touches a real file system.
 */
export function runCli(args, files = {}, options = {}) {
  needReady();
  return wasm.runCli(args.map(String), files, Boolean(options.isTerminal));
}

// ----------------------------------------------------------------- explain

/**
 * Every legal move's value in a position under a heuristic, with the
 * planning heuristics' goal distances and relaxed plans (thesis f_JO):
 * the object of `gdlkit explain --format json` (docs/planning.md).
 * `options`: `{moves, role, heuristic, engine}` (all optional).
 */
export function explain(kif, options) {
  needReady();
  if (typeof kif !== 'string') {
    throw new TypeError('explain(kif, options): kif must be a string');
  }
  return wasm.explain(kif, options);
}
