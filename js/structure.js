// The gdlkit JavaScript API, structure area: the structure of a game
// (boards, pieces, markers, counters, quantities, roles; lecture 004) and
// the SVG of a state's board drawn from it, and what grounding does to it
// (`groundReport`). A thin layer over
// crate/wasm/src/wasm/structure.rs and ground.rs: everything is computed
// in Rust.

import { needReady, wasm } from './wasm.js';

/**
 * The structure of a game (as `gdlkit structure --format json`).
 * `options`: `{seed, states, ms}` (simulation seed, states to sample,
 * time limit in ms).
 */
export function structure(kif, options) {
  needReady();
  if (typeof kif !== 'string') {
    throw new TypeError('structure(kif, options): kif must be a string');
  }
  return wasm.structure(kif, options);
}

/**
 * The SVG (a string) of the board of a state, or `""` when the game has no
 * board. `game`: KIF text or a structure from `structure()` (faster: the
 * structure is found once). `state`: the fluents (strings) or a state
 * description `{fluents}`. `options`: `{cell, labels}` (pixels per square,
 * coordinates along the edges; default 40 and true).
 */
export function renderBoard(game, state, options) {
  needReady();
  const fluents = Array.isArray(state) ? state : state?.fluents;
  if (!Array.isArray(fluents)) {
    throw new TypeError('renderBoard(game, state): state must be a list of fluents or {fluents}');
  }
  if (typeof game !== 'string' && (game === null || typeof game !== 'object')) {
    throw new TypeError('renderBoard(game, state): game must be KIF text or a structure');
  }
  return wasm.renderBoard(game, fluents.map(String), options);
}

/**
 * What instantiation (grounding) does to a game (as `gdlkit ground
 * --format json`): ground atoms per relation, the rules that grew most,
 * the network's size and depth, or where and why grounding stopped; a
 * small game's ground rules. `options`: `{ms}` (the grounding's time
 * budget, default 20000).
 */
export function groundReport(kif, options) {
  needReady();
  if (typeof kif !== 'string') {
    throw new TypeError('groundReport(kif, options): kif must be a string');
  }
  return wasm.groundReport(kif, options);
}
