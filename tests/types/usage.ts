// Type-checked by `npm test` (tsc --noEmit -p tests/types), never run: the
// generated types (js/types.d.ts) as a user of the package writes them.
// Each `@ts-expect-error` must be an error, or tsc fails.
import {
  type Diagnostic,
  type Explanation,
  Game,
  type MatchResult,
  type PlayerSpec,
  type SearchOptions,
  type SearchResult,
  check,
  solveSymbolic,
  explain,
  runMatch,
  search,
  searchTree,
  SolveJob,
  type SolvedPosition,
} from '../../js/index.js';

const kif = '(role x)';
const options: SearchOptions = { algorithm: 'alphabeta', depth: 2, budgetMs: 100, ordering: 'best', engine: 'fast' };
const result: SearchResult = search(kif, options);
const best: string | null = result.bestMove;
const nodes: number = result.stats.nodes + result.stats.ttHits + result.stats.elapsedMs;
const fallback: string | undefined = result.engineFallback;
for (const e of result.events ?? []) {
  if (e.type === 'best_move') console.log(e.move, e.value);
}
console.log(best, nodes, fallback, searchTree('(1 2)').tree);

// @ts-expect-error an unknown option key
search(kif, { depht: 2 });
// @ts-expect-error a snake_case option
search(kif, { budget_ms: 100 });
// @ts-expect-error a snake_case result field
console.log(result.best_move);
// @ts-expect-error a value outside the union
search(kif, { engine: 'quick' });

const diags: Diagnostic[] = check(kif);
for (const d of diags) console.log(d.endLine, d.endColumn, d.fixes[0]?.edits[0]?.insert);
// @ts-expect-error snake_case diagnostic field
console.log(diags[0]?.end_line);

const game = new Game(kif, { engine: 'auto' });
const state = game.initialState();
const fromState: SearchResult = game.search(state, { depth: 1 });
const summary = game.playouts({ count: 2, seed: 1, maxSteps: 10, from: state });
console.log(fromState.value, summary.meanSteps, game.describe(state).outcome?.winners);
// @ts-expect-error an unknown playouts option
game.playouts({ counts: 2 });

const match: MatchResult = runMatch(kif, ['random', { name: 'mcts', ms: 10 }], { games: 2, onGame: (r) => r.goals });
// Each player's options are typed (generated from their declaration).
const solverSpec: PlayerSpec = { name: 'mcts-solver', ms: 200, greedy: true, tactics: 'auto', cores: 'auto' };
runMatch(kif, [solverSpec, { name: 'alphabeta', mode: 'paranoid', depth: 3 }]);
// @ts-expect-error a value an option does not take
runMatch(kif, [{ name: 'mcts', tactics: 'sometimes' }]);
// @ts-expect-error an option of another player
runMatch(kif, [{ name: 'random', ms: 10 }]);
console.log(match.players[0]?.meanGoal, match.players[0]?.msPerMove);
// @ts-expect-error snake_case match option
runMatch(kif, ['random'], { max_steps: 10 });

const why: Explanation = explain(kif, { heuristic: 'hff' });
console.log(why.moves[0]?.goals[0]?.hFf);
// @ts-expect-error an unknown explain option
explain(kif, { heuristics: 'hff' });

// The late bindings' generated types: the parallel players' workers, the
// memory budget, the registry.
import {
  type AlphaBetaChoice,
  AlphaBetaWorker,
  type EnsembleChoice,
  EnsembleMember,
  type EnsembleMemberResult,
  type MctsChoice,
  MctsWorker,
  type PlayerInfo,
  alphabetaChoose,
  ensembleChoose,
  mctsChoose,
  memoryBudget,
  players,
} from '../../js/index.js';
import { type HeuristicInfo, heuristics } from '../../js/index.js';

const member = new EnsembleMember(kif, 'ensemble:ms=10', { member: 0 });
const part: EnsembleMemberResult = member.search(['(cell 1 1 b)'], 0);
console.log(part.heuristic, part.move, part.stats.ttHits, part.solved);
const pick: EnsembleChoice = ensembleChoose([part]);
console.log(pick.index, pick.move, pick.heuristic);
// @ts-expect-error snake_case stats field
console.log(part.stats.tt_hits);

const ab = new AlphaBetaWorker(kif, 'alphabeta:ms=10', { worker: 1 });
const root = ab.rootResult([], 0);
const abPick: AlphaBetaChoice = alphabetaChoose([root]);
console.log(root.depth, root.stats.elapsedMs, abPick.worker);

const mc = new MctsWorker(kif, 'mcts:ms=10', { seed: 1 });
const stats = mc.rootStats([], 0);
const mcPick: MctsChoice = mctsChoose([stats]);
console.log(stats.visits[0], mcPick.merged.totals, mcPick.value);

// @ts-expect-error an unknown worker option
new MctsWorker(kif, 'mcts', { seeds: 1 });

const { budgetMb, usedMb } = memoryBudget();
console.log(budgetMb - usedMb);
// @ts-expect-error not a field of the memory budget
console.log(memoryBudget().budget_mb);

const trees: PlayerInfo[] = players().filter((p) => p.drawsTree);
console.log(trees.map((p) => p.label));

const offered: HeuristicInfo[] = heuristics().filter((x) => x.explain && !x.distance);
console.log(offered.map((x) => x.label));

// A solved position: the role to move and each move's outcome for it.
const solver = new SolveJob(kif, { seconds: 10 });
const position: SolvedPosition | null = solver.position(['(control x)']);
const wins = position?.moves.filter((m) => m.outcome === 'win' && m.best).map((m) => m.value?.movesToEnd);
console.log(wins, position?.role, solver.values([['(control x)']])?.[0]?.goals);
// @ts-expect-error outcomes are win, draw, loss or score
console.log(position?.moves[0]?.outcome === 'lose');

// A symbolic solve: the states by layer and the start's value, with progress.
const bdd = solveSymbolic(kif, { seconds: 10, order: 'cells' }, (p) => console.log(p.phase, p.detail, p.elapsedMs));
console.log(bdd.stats.layers.reduce((a, b) => a + b, 0), bdd.initial?.[0], bdd.byValue[0]?.states);
// @ts-expect-error the variable orders are cells and grounder
solveSymbolic(kif, { order: 'random' });
