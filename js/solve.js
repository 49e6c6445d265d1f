// The gdlkit JavaScript API, solve area: every reachable state's value under
// perfect play (docs/solve.md) as a resumable job. A thin layer over
// crate/wasm/src/wasm/solve.rs.

import { needReady, needString, optionsObject, wasm } from './wasm.js';

const freed = () => new TypeError('gdlkit: this SolveJob was freed');

/**
 * The solver over a game, run in slices: `step(states)` expands up to that
 * many states and returns the progress; once `done`, `summary()` and
 * `solutionFile()` hold the result. `stop()` ends the exploration early and
 * solves what was explored (a partial solution). Free it with free() (or `using`).
 */
/** The option key by which `SolveJob.fromSolution` hands the constructor a file. */
const FILE = Symbol('solution file');

export class SolveJob {
  #job;

  /** Options: `seconds`, `maxStates`, `engine`. Throws a GdlDiagnosticsError for a game with errors, a GdlSolveError for a game it cannot solve. */
  constructor(kif, options = {}) {
    needReady();
    needString(kif, 'new SolveJob(kif, options): kif');
    this.#job =
      options?.[FILE] !== undefined ? wasm.SolveJob.fromSolution(kif, options[FILE]) : new wasm.SolveJob(kif, optionsObject(options, 'new SolveJob'));
  }

  /**
   * A finished job from a solution file's text (`gdlkit solve --out`,
   * `solutionFile()`) of the game `kif`: it answers `summary`, `position`
   * and `values` as after a solve. Throws a TypeError when the file does not
   * read or is of other roles or another engine.
   */
  static fromSolution(kif, file) {
    return new SolveJob(kif, { [FILE]: needString(file, 'SolveJob.fromSolution(kif, file): file') });
  }

  #j() {
    if (!this.#job) {
      throw freed();
    }
    return this.#job;
  }

  /** Expands up to `states` states (default 20000) and returns the progress; throws a GdlSolveError for simultaneous moves. */
  step(states = 20000) {
    return this.#j().step(states);
  }

  /** The progress, without doing anything. */
  progress() {
    return this.#j().progress();
  }

  /** Ends the exploration now and solves what was explored. */
  stop() {
    return this.#j().stop();
  }

  /** The summary (the JSON of `gdlkit solve --format json`), or null until done. */
  summary() {
    return this.#j().summary();
  }

  /** The solution file's text (`gdlkit solve --out`), or null until done. */
  solutionFile() {
    return this.#j().solutionFile() ?? null;
  }

  /**
   * The position made of `fluents` (term texts): its solved value, the role
   * to move and each legal move's value and outcome for it; null until done.
   */
  position(fluents) {
    return this.#j().position(fluents);
  }

  /** The solved value of each state (a list of fluent texts; null where unknown); null until done. */
  values(states) {
    return this.#j().values(states);
  }

  get freed() {
    return !this.#job;
  }

  /** Releases the job (idempotent). */
  free() {
    const j = this.#job;
    this.#job = undefined;
    j?.free();
  }
}

if (typeof Symbol.dispose === 'symbol') {
  SolveJob.prototype[Symbol.dispose] = function dispose() {
    this.free();
  };
}

/**
 * Solves a game to the end (or its time limit) on the calling thread: the
 * summary. For a page, prefer GdlWorker.solve (progress, cancellation).
 */
export function solve(kif, options = {}) {
  const job = new SolveJob(kif, options);
  try {
    while (!job.step(1 << 20).done) {
      // each step expands up to 2^20 states
    }
    return job.summary();
  } finally {
    job.free();
  }
}

/**
 * Solves a game symbolically with BDDs (`gdlkit solve --symbolic`): the
 * reachable states by layer, the initial state's value and the states by
 * value, without enumerating the states. `onProgress(progress)` is called
 * at most every 200 ms. Blocks the calling thread: in a page, call it in a
 * worker. Throws a GdlDiagnosticsError for rules with errors, a
 * GdlSolveError for a game it cannot solve so.
 */
export function solveSymbolic(kif, options = {}, onProgress = undefined) {
  needReady();
  needString(kif, 'solveSymbolic(kif, options): kif');
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw new TypeError('solveSymbolic(kif, options, onProgress): onProgress must be a function');
  }
  return wasm.solveSymbolic(kif, optionsObject(options, 'solveSymbolic'), onProgress);
}
