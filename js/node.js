// gdlkit for Node 20+ (the `node` condition of the exports map). The
// WebAssembly module is read from the package files and instantiated when
// this module is imported, so everything is usable at once; `await init()`
// is accepted (and does nothing) so code runs unchanged in browsers.

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { initFrom, initSync, isReady, wasmSource } from './wasm.js';

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
export { parallelBestMove, parallelEnsembleMove } from './parallel.js';

// The .wasm file in the package.
const wasmPath = new URL('../pkg/gdlkit_bg.wasm', import.meta.url);

initSync(readFileSync(wasmPath));

/** Resolves at once (the module is loaded on import); see index.js. */
export function init(input) {
  return isReady() ? Promise.resolve() : initFrom(wasmSource(input) ?? readFileSync(wasmPath));
}

/** The cores `cores: auto` uses: os.availableParallelism() (Node's count). */
export function autoCores() {
  return Math.max(1, availableParallelism());
}
