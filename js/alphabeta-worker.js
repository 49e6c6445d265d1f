// Parallel alpha-beta (lazy SMP), the worker side:
// `AlphaBetaWorker` is helper number `worker` with its own table (helpers
// start one depth deeper when odd and try the root moves in another order);
// `alphabetaChoose` picks among the workers' results. Both are thin
// wrappers over crate/wasm/src/wasm/alphabeta_parallel.rs: the rule is the same
// Rust function as the native threads' (`alphabeta:threads=N`).

import { needReady, needString, needStrings, wasm } from './wasm.js';

export class AlphaBetaWorker {
  #w;

  /** `spec`: an `alphabeta` spec (`"alphabeta:ms=200"`); options `{worker, engine}` (read in Rust): `worker` is this worker's number (0 plays as the one-core player). */
  constructor(kif, spec = 'alphabeta', options = undefined) {
    needReady();
    this.#w = new wasm.AlphaBetaWorker(needString(kif, 'new AlphaBetaWorker(kif, spec): kif'), needString(spec, 'new AlphaBetaWorker(kif, spec): spec'), options);
  }

  /** `{move, value, solved, depth, stats}` of a search from `fluents` for role number `role`. */
  rootResult(fluents, role = 0) {
    if (!this.#w) {
      throw new Error('gdlkit: this AlphaBetaWorker was freed');
    }
    return this.#w.rootResult(needStrings(fluents, 'rootResult(fluents, role): fluents'), role);
  }

  free() {
    this.#w?.free();
    this.#w = null;
  }
}

/** The worker whose move is played (a proven result, else the deepest, then the value, then the lower number): `{worker, move, value, solved, depth}`. */
export function alphabetaChoose(parts) {
  needReady();
  return wasm.alphabetaChoose(parts);
}
