// Root-parallel MCTS, the worker side: `MctsWorker` searches
// from a state and returns its root statistics; `mctsChoose` merges the
// statistics of several workers and picks the move. Both are thin wrappers
// over crate/wasm/src/wasm/parallel.rs: the merge and the move choice are the
// same Rust functions as the native threads (`mcts:threads=N`).

import { needReady, needString, needStrings, wasm } from './wasm.js';

export class MctsWorker {
  #w;

  /**
   * `spec`: an `mcts` or `mcts-solver` spec (`"mcts:ms=200"`, default
   * `defaultPlayer()`); options `{seed, worker,
   * engine}` (read in Rust, an unknown key is a TypeError): `worker` is
   * this worker's number (its seed is derived from `seed` as natively).
   */
  constructor(kif, spec = undefined, options = undefined) {
    needReady();
    spec ??= wasm.defaultPlayer();
    this.#w = new wasm.MctsWorker(needString(kif, 'new MctsWorker(kif, spec): kif'), needString(spec, 'new MctsWorker(kif, spec): spec'), options);
  }

  /** `{moves, visits, totals, playouts, proven, plies, stats}` of a search from `fluents` for role number `role`. */
  rootStats(fluents, role = 0) {
    if (!this.#w) {
      throw new Error('gdlkit: this MctsWorker was freed');
    }
    return this.#w.rootStats(needStrings(fluents, 'rootStats(fluents, role): fluents'), role);
  }

  free() {
    this.#w?.free();
    this.#w = null;
  }
}

/** Merges root statistics (`rootStats` results) and picks the move: `{move, value, merged}`. */
export function mctsChoose(parts) {
  needReady();
  return wasm.mctsChoose(parts);
}
