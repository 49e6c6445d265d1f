// The gdlkit JavaScript API, core area: validation, formatting, the state
// machine, replay and the CLI. A thin layer over the wasm-bindgen output in
// ../pkg/ (no game logic here). Shared by the browser entry (index.js) and
// the Node entry (node.js), which differ only in where init() finds the
// .wasm file. Documented in docs/js-api.md; types in index.d.ts.


import { needReady, needString, needStrings, optionalString, optionsObject, wasm } from './wasm.js';

/** The gdlkit version (the crate version). */
export function version() {
  needReady();
  return wasm.version();
}

/**
 * The game library embedded in the package: `[{name, title, category,
 * board, credit, description, wellFormed}]`, sorted by name.
 */
export function games() {
  needReady();
  return wasm.games();
}

/** The KIF text of the library game `name` (throws an Error if none). */
export function gameText(name) {
  needReady();
  if (typeof name !== 'string') throw new TypeError('gameText(name): name must be a string');
  return wasm.gameText(name);
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

/**
 * What `gdlkit check --fix` does, on text: applies the quick fixes the
 * diagnostics carry until none is left. `{unsafe: true}` also applies
 * guesses ("did you mean"). Returns `{text, applied: [{code, title, line,
 * column}]}`.
 */
export function fix(text, options) {
  needReady();
  if (typeof text !== 'string') {
    throw new TypeError('fix(text, options): text must be a string');
  }
  return wasm.fix(text, options);
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
  #kif;

  /**
   * Throws a GdlDiagnosticsError (with `diagnostics`) when the text has
   * errors. `engine`: "auto" (default: the fast engine when the game
   * grounds, else the interpreter), "fast" or "interpreter".
   */
  constructor(kif, options = {}) {
    needReady();
    if (typeof kif !== 'string') {
      throw new TypeError('new Game(kif): kif must be a string');
    }
    const { engine, ...rest } = optionsObject(options, 'Game');
    const unknown = Object.keys(rest);
    if (unknown.length) {
      throw new TypeError(`unknown Game option \`${unknown[0]}\` (options: engine)`);
    }
    this.#game = wasm.Game.onEngine(kif, optionalString(engine, 'Game option engine ("auto", "fast" or "interpreter")'));
    this.#roles = this.#game.roles();
    this.#kif = kif;
  }

  /** The game's text (what `new Player(game, spec)` loads). */
  get text() {
    return this.#kif;
  }

  /** Which engine runs and why: `{name: "fast"|"interpreter", requested, reason}`. */
  get engine() {
    return this.#g().engine();
  }

  /**
   * Random playouts (seeded: playout i is the game `gdlkit play --seed
   * seed+i` plays) from `from` (a state handle; default the initial state).
   * Options `{count = 100, seed = 1, maxSteps = 1000, record = false}`.
   * Returns `{roles, playouts, terminal, meanSteps, meanGoals, games?}`.
   */
  playouts(options = {}) {
    const { from, ...rest } = optionsObject(options, 'playouts');
    return this.#g().playouts(from ?? undefined, rest);
  }

  /**
   * One search from a state of this game, on its engine: the options and
   * result of `search(kif, options)` (`algorithm`, `depth`, `trace`,
   * `ordering`, ...).
   */
  search(state, options) {
    return this.#g().search(state, options);
  }

  /**
   * Every legal move's value in a state (the result of `explain`), for
   * `role` (default: the one with a choice) under `heuristic` (default
   * "fjo"), on this game's engine.
   */
  explain(state, options) {
    return this.#g().explain(state, options);
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
    return g.next(state, needStrings(this.#joint(moves, 'next'), 'next(state, moves): moves'));
  }

  /** A joint move given as an array (role order) or an object keyed by role name: the array. */
  #joint(moves, method) {
    if (moves === null || typeof moves !== 'object') {
      throw new TypeError(`${method}(state, moves): moves must be an array of move texts (one per role) or an object keyed by role name`);
    }
    if (Array.isArray(moves)) {
      return moves;
    }
    const byName = moves;
    for (const name of Object.keys(byName)) {
      this.roleIndex(name);
    }
    return this.#roles.map((r) => {
      const m = byName[r];
      if (typeof m !== 'string') {
        const err = new Error(`no move for role ${r}`);
        err.name = 'GdlMoveError';
        throw err;
      }
      return m;
    });
  }

  /**
   * GDL-II: what each role perceives when the joint move `moves` (as for
   * `next`) is made in `state`: per role (role order) its percepts, sorted;
   * the percepts `replay` and matches record. Empty lists in games without
   * `sees`.
   */
  percepts(state, moves) {
    return this.#g().percepts(state, needStrings(this.#joint(moves, 'percepts'), 'percepts(state, moves): moves'));
  }

  /**
   * GDL-II: what `role` knows of the state after `steps` from the initial
   * state, each `{move, percepts}` as it saw it: the fluents true in every
   * consistent state (`known`) and those that may hold with their chances
   * (`uncertain`). A history that continues the previous call's is
   * extended, not replayed.
   */
  belief(role, steps) {
    if (!Array.isArray(steps)) throw new TypeError('belief(role, steps): steps must be an array of {move, percepts}');
    return this.#g().belief(this.roleIndex(role), steps);
  }

  /** GDL-II: the index of the chance role `random` (no player sits there), or null. */
  chanceRole() {
    return this.#g().chanceRole() ?? null;
  }

  /** Whether the game is GDL-II (`sees` or a `random` role): its roles do not see the whole state. */
  get isGdl2() {
    return this.#g().isGdl2();
  }

  /**
   * GDL-II: the chance role's move in `state`, drawn uniformly by a
   * generator seeded with `seed` (an integer; the same move on every
   * engine). Throws a RangeError when the game has no `random` role.
   */
  drawChance(state, seed = 1) {
    if (!Number.isSafeInteger(seed) || seed < 0) {
      throw new RangeError(`drawChance(state, seed): seed must be a non-negative integer, got ${seed}`);
    }
    return this.#g().drawChance(state, seed);
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
    return this.#g().stateFromFluents(needStrings(fluents, 'stateFromFluents(fluents): fluents'));
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

// --------------------------------------------------------------- playouts

/**
 * Random playouts of a game played a few at a time (so a worker can report
 * progress and stop between steps): `step(n)` plays up to n more and
 * returns true when all `count` are played; `result()` is what
 * `game.playouts()` returns. Options `{count, seed, maxSteps, record}`;
 * `engine` as for Game. Free it with free().
 */
export class PlayoutJob {
  #job;

  constructor(kif, options = {}, { engine } = {}) {
    needReady();
    if (typeof kif !== 'string') {
      throw new TypeError('new PlayoutJob(kif, options): kif must be a string');
    }
    this.#job = new wasm.PlayoutJob(kif, options, optionalString(engine, 'PlayoutJob option engine'));
  }

  #j() {
    if (!this.#job) {
      throw new TypeError('gdlkit: this PlayoutJob was freed');
    }
    return this.#job;
  }

  step(n = 1) {
    return this.#j().step(n);
  }

  /** Playouts played so far. */
  get done() {
    return this.#j().done();
  }

  result() {
    return this.#j().result();
  }

  free() {
    const j = this.#job;
    this.#job = undefined;
    j?.free();
  }
}

// ----------------------------------------------------------------- replay

/**
 * Replays joint moves from the initial state: `{roles, steps}` in the
 * conformance format. `moves`: JSON text, a list of joint moves, or
 * `{jointMoves}` (or `{joint_moves}`). An illegal move throws a GdlMoveError with `step`.
 */
export function replay(kif, moves) {
  needReady();
  needString(kif, 'replay(kif, moves): kif');
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
  if (!Array.isArray(args)) {
    throw new TypeError('runCli(args, files): args must be an array of strings');
  }
  return wasm.runCli(args.map(String), files ?? {}, Boolean(optionsObject(options, 'runCli').isTerminal));
}

// ----------------------------------------------------------------- explain

/**
 * Every legal move's value in a position under a heuristic, with the
 * planning heuristics' goal distances and relaxed plans (thesis f_JO):
 * the object of `gdlkit explain --format json` (docs/planning.md).
 * `options`: `{moves, role, heuristic, engine, ms}` (all optional; `ms`
 * the time limit, default 60,000).
 */
export function explain(kif, options) {
  needReady();
  if (typeof kif !== 'string') {
    throw new TypeError('explain(kif, options): kif must be a string');
  }
  return wasm.explain(kif, options);
}
