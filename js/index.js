// gdlkit for browsers and bundlers (the `default` condition of the exports
// map). Call `await init()` once before anything else: it fetches
// gdlkit_bg.wasm next to pkg/gdlkit.js (bundlers that understand
// `new URL(..., import.meta.url)` copy it), or from the URL you pass.

import { initFrom, wasmSource } from './wasm.js';

export { check, explain, fix, format, Game, gameText, games, hasErrors, isGdlError, PlayoutJob, replay, runCli, version } from './api.js';
export { analyze, AnalysisJob } from './analysis.js';
export { solve, solveSymbolic, SolveJob } from './solve.js';
export { defaultPlayer, parsePlayerSpec, parseTree, Player, players, playerSpec, reorderTree, runMatch, search, searchTree } from './search.js';
export { heuristics } from './search.js';
export { groundReport, renderBoard, structure } from './structure.js';
export { DEFAULT_REPOSITORY, repositoryGame, repositoryGames } from './repository.js';
export { memoryBudget, setMemoryBudget } from './limits.js';
export { initSync, isReady } from './wasm.js';
export { MctsWorker, mctsChoose } from './mcts-worker.js';
export { AlphaBetaWorker, alphabetaChoose } from './alphabeta-worker.js';
export { EnsembleMember, ensembleChoose, ensembleMembers } from './ensemble.js';
export { autoCores, parallelBestMove, parallelEnsembleMove } from './parallel.js';

/**
 * Loads the WebAssembly module (once; later calls return the same promise).
 * `input`: a URL (string or URL), a Response, bytes or a
 * WebAssembly.Module, or `{ wasm }` holding one; default: the .wasm file
 * next to the module.
 */
export function init(input) {
  return initFrom(wasmSource(input));
}
