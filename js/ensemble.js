// The ensemble player across workers (lecture 004 "Verteilte
// Suche"), the worker side: `EnsembleMember` runs one member's search (one
// evaluation function) from a state; `ensembleMembers` lists an ensemble's
// members; `ensembleChoose` applies the lecture's rule to the members'
// results. Thin wrappers over crate/wasm/src/wasm/ensemble.rs: the members and
// the rule are the same Rust functions as the native threads.

import { needReady, needString, needStrings, optionalString, wasm } from './wasm.js';

export class EnsembleMember {
  #m;

  /** Member number `member` of the `ensemble` spec (`"ensemble:ms=200"`); options `{member, engine}` (read in Rust). */
  constructor(kif, spec = 'ensemble', options = undefined) {
    needReady();
    this.#m = new wasm.EnsembleMember(needString(kif, 'new EnsembleMember(kif, spec): kif'), needString(spec, 'new EnsembleMember(kif, spec): spec'), options);
  }

  /** The member's evaluation function (`none`: the exhaustive search). */
  get heuristic() {
    return this.#m?.heuristic;
  }

  /** `{heuristic, move, value, solved, depth, stats}` of a search from `fluents` for role number `role`. */
  search(fluents, role = 0) {
    if (!this.#m) {
      throw new Error('gdlkit: this EnsembleMember was freed');
    }
    return this.#m.search(needStrings(fluents, 'search(fluents, role): fluents'), role);
  }

  free() {
    this.#m?.free();
    this.#m = null;
  }
}

/** The member heuristics of an `ensemble` spec on a game, in member order. */
export function ensembleMembers(kif, spec = 'ensemble', { engine } = {}) {
  needReady();
  needString(kif, 'ensembleMembers(kif, spec): kif');
  needString(spec, 'ensembleMembers(kif, spec): spec');
  return wasm.ensembleMembers(kif, spec, optionalString(engine, 'ensembleMembers option engine'));
}

/** The lecture's choice among member results: `{move, index, heuristic}`. */
export function ensembleChoose(parts) {
  needReady();
  return wasm.ensembleChoose(parts);
}
