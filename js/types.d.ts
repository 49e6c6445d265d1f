// Generated from the Rust types by ts-rs (crate/wasm/src/typescript.rs):
// do not edit; run `node scripts/types.mjs` after changing them.

export type Severity = "error" | "warning" | "info";

export type RelatedSpan = { message: string, line: number, column: number, endLine: number, endColumn: number, from: number, to: number, };

/**
 * Replace UTF-16 offsets `[from, to)` by `insert`.
 */
export type Edit = { from: number, to: number, insert: string, };

export type QuickFix = { title: string, edits: Array<Edit>, safe: boolean, };

/**
 * A diagnostic with positions resolved for JSON/JS consumers (1-based lines
 * and columns, UTF-16 offsets for editors).
 */
export type Diagnostic = { code: string, severity: Severity, message: string, line: number, column: number, endLine: number, endColumn: number, 
/**
 * UTF-16 offsets of the span (for CodeMirror and other JS editors).
 */
from: number, to: number, hint: string, related: Array<RelatedSpan>, 
/**
 * Quick fixes with edits in UTF-16 offsets (`from`, `to`, `insert`).
 */
fixes: Array<QuickFix>, };

/**
 * A position as editors show it.
 */
export type Position = { 
/**
 * 1-based line.
 */
line: number, 
/**
 * 1-based column, counted in Unicode scalar values.
 */
column: number, 
/**
 * Offset from the start of the text in UTF-16 code units.
 */
utf16: number, };

/**
 * A fix that was applied.
 */
export type AppliedFix = { code: string, title: string, 
/**
 * 1-based line and column of the problem in the text of its pass.
 */
line: number, column: number, };

/**
 * The result of [`fix_text`] (JS: `fix(text)`).
 */
export type FixResult = { text: string, applied: Array<AppliedFix>, };

/**
 * Options of `fix` (all optional).
 */
export type FixOptions = { 
/**
 * Also apply guesses ("did you mean", fixes with `safe: false`).
 */
unsafe?: boolean, };

/**
 * Which state machine runs: "auto" (the grounded fast engine when the
 * game grounds within budget, else the interpreter), "fast" or
 * "interpreter". (A TypeScript type only.)
 */
export type EngineChoice = 'auto' | 'fast' | 'interpreter';

/**
 * Which engine runs a `Game`, and why.
 */
export type EngineInfo = { 
/**
 * The engine that runs.
 */
name: 'fast' | 'hybrid' | 'interpreter', 
/**
 * What was asked for.
 */
requested: EngineChoice, 
/**
 * Why this engine runs (for `auto` falling back: why the game does not ground).
 */
reason: string, };

/**
 * How one role did in a finished game.
 */
export type RoleResult = "win" | "draw" | "loss";

/**
 * The outcome of a terminal state (JS: `describe(state).outcome`).
 */
export type Outcome = { 
/**
 * The highest goal value (each role's largest derivable; a role
 * without one counts 0).
 */
score: number, 
/**
 * The roles (indices) with the highest value.
 */
winners: Array<number>, 
/**
 * More than one role and all of them tie.
 */
draw: boolean, 
/**
 * Per role: a win (strictly above every other role; alone: 100), a
 * draw (tied for the top) or a loss ([`role_result`]).
 */
results: Array<RoleResult>, };

/**
 * A description of one state. Lists are sorted by code point; `legal` and
 * `goals` are per role, in role order.
 */
export type StateDescription = { fluents: Array<string>, terminal: boolean, 
/**
 * Each role's legal moves.
 */
legal: Array<Array<string>>, 
/**
 * Each role's goal values (several when the rules derive several).
 */
goals: Array<Array<number>>, 
/**
 * Terminal states with goal values: who won.
 */
outcome: Outcome | null, };

/**
 * One step as a role saw it (`game.belief`): the move it made and what
 * it perceived (GDL-II's `sees`).
 */
export type SeenStep = { move: string, 
/**
 * Its percepts (default none).
 */
percepts?: Array<string>, };

/**
 * A fluent that may hold, with its chance (0 to 1).
 */
export type Uncertain = { fluent: string, chance: number, };

/**
 * One role's view of the state (JS: `game.belief(role, steps)`).
 */
export type BeliefView = { 
/**
 * Consistent states held (all of them when `exact`).
 */
states: number, 
/**
 * Every consistent state is held; else a sample of them.
 */
exact: boolean, 
/**
 * Fluents true in every state held, sorted.
 */
known: Array<string>, 
/**
 * Fluents true in some states held but not all, sorted, each with
 * the chance that it holds (the states' weights: the other roles
 * and `random` picking uniformly).
 */
uncertain: Array<Uncertain>, };

/**
 * Options of `game.playouts` and `PlayoutJob` (all optional).
 */
export type PlayoutOptions = { 
/**
 * Playouts (default 100).
 */
count?: number, 
/**
 * Playout i is the game `gdlkit play --seed seed+i` plays (default 1).
 */
seed?: number, 
/**
 * Joint moves per playout at most (default 1000).
 */
maxSteps?: number, 
/**
 * Keep the games (`games`).
 */
record?: boolean, };

/**
 * One random game.
 */
export type PlayedGame = { 
/**
 * The joint moves made (one move per role, in role order).
 */
jointMoves: Array<Array<string>>, 
/**
 * The last state is terminal.
 */
terminal: boolean, 
/**
 * Stopped because a role had no legal move.
 */
stuck: boolean, 
/**
 * Every goal value per role in the last state.
 */
goals: Array<Array<number>>, 
/**
 * GDL-II games only: per joint move, what each role perceived
 * (`sees`, role order, sorted).
 */
percepts?: Array<Array<Array<string>>>, };

/**
 * What a run of playouts found (JS: `game.playouts()`'s result).
 */
export type PlayoutSummary = { roles: Array<string>, 
/**
 * Playouts played.
 */
playouts: number, 
/**
 * Playouts that reached a terminal state.
 */
terminal: number, meanSteps: number, 
/**
 * Per role the mean goal value (the largest derivable, 0 if none) over
 * the terminal states reached; null before any.
 */
meanGoals: Array<number | null>, 
/**
 * The games themselves, with `record: true`.
 */
games?: Array<PlayedGame>, };

/**
 * A search algorithm (`players()` lists every player).
 */
export type Algorithm = 'alphabeta' | 'minimax' | 'best-first' | 'mcts' | (string & {});

/**
 * The order each node's moves are searched in.
 */
export type Ordering = 'given' | 'reversed' | 'best' | 'worst';

/**
 * A search value: a number on the 0..100 goal scale (trees: the leaf
 * values), or an unbounded alpha/beta.
 */
export type SearchValue = number | 'inf' | '-inf';

/**
 * A nested abstract tree: numbers are leaves, `{chance: [...]}` chance
 * nodes (each child equally likely).
 */
export type AbstractTree = number | AbstractTree[] | { chance: AbstractTree[] };

/**
 * A child's number in the original tree, and its own children's labels
 * (`null` for a leaf).
 */
export type TreeLabel = { label: number, sub: Array<TreeLabel> | null, };

/**
 * One node of an abstract tree, searched or not, for pages that draw the
 * whole tree (`TreeShapeNode` in JS).
 */
export type TreeShapeNode = { 
/**
 * Child numbers (1-based) from the root.
 */
path: Array<number>, 
/**
 * Who chooses here: `max`, `min`, `chance`, or `leaf`.
 */
kind: TraceNodeKind, 
/**
 * A leaf's value for MAX.
 */
value?: number, 
/**
 * How many children it has.
 */
children: number, };

/**
 * Options of `search`, `searchTree` and `game.search` (`gdlkit search`
 * flags; all optional, camelCase in JS).
 */
export type SearchOptions = { 
/**
 * `alphabeta` (default), `minimax`, `best-first` or `mcts`.
 */
algorithm?: Algorithm, 
/**
 * Depth limit (plies).
 */
depth?: number, 
/**
 * Time budget in milliseconds (games: 1000 when no budget is given).
 */
budgetMs?: number, 
/**
 * Node budget.
 */
nodes?: number, 
/**
 * The searching role's name (default: the first role).
 */
role?: string, 
/**
 * `fuzzy` (default), `mobility`, `inverse-mobility`, `novelty`, `none`.
 */
heuristic?: string, 
/**
 * Record the lecture trace (`events`, `states`); minimax and alphabeta only.
 */
trace?: boolean, 
/**
 * Events recorded at most (nodes entered; default 5000).
 */
nodeCap?: number, 
/**
 * MCTS seed.
 */
seed?: number, 
/**
 * The state machine (default "auto"): read by whoever loads the game
 * (the CLI, the wasm bindings), reported in the result.
 */
engine?: EngineChoice, 
/**
 * The order each node's moves are searched in (minimax, alphabeta):
 * `given` (default), `reversed`, `best` (first), `worst` (first).
 * Trees come back reordered (`tree`, `labels`); games reorder at each
 * node.
 */
ordering?: Ordering, 
/**
 * Games: search from the state made of these fluents (term text)
 * instead of the initial state.
 */
from?: Array<string>, };

/**
 * Counters of one search (`SearchStats` in JS).
 */
export type SearchStats = { 
/**
 * States entered (for MCTS: tree nodes created).
 */
nodes: number, 
/**
 * Leaves evaluated (terminal or heuristic).
 */
leaves: number, 
/**
 * Alpha-beta cut-offs.
 */
cutoffs: number, 
/**
 * Transposition-table hits that ended a node.
 */
ttHits: number, 
/**
 * MCTS iterations (simulations): one per descent, whether it ends in
 * a random playout or on a terminal node already in the tree.
 */
playouts: number, 
/**
 * Deepest completed iteration (iterative deepening) or tree depth.
 */
depth: number, elapsedMs: number, };

/**
 * The counts of one iterative-deepening pass.
 */
export type SearchIteration = { 
/**
 * The depth limit of the pass.
 */
depth: number, 
/**
 * The pass finished (false: the budget ended it).
 */
complete: boolean, nodes: number, leaves: number, cutoffs: number, ttHits: number, };

/**
 * Who chooses at a node.
 */
export type TraceNodeKind = "max" | "min" | "chance" | "forced" | "leaf";

export type TraceBound = "alpha" | "beta";

/**
 * A pruned child of a cut-off.
 */
export type PrunedMove = { move: string, };

/**
 * One step of a search.
 */
export type TraceEvent = { "type": "iteration", depth: number, } | { "type": "enter", node: number, parent: number | null, ply: number, kind: TraceNodeKind, move: string | null, state: number, reply?: true, alpha: SearchValue | null, beta: SearchValue | null, } | { "type": "leaf", node: number, value: SearchValue, terminal: boolean, } | { "type": "bound", node: number, bound: TraceBound, value: SearchValue, } | { "type": "cutoff", node: number, alpha: SearchValue, beta: SearchValue, value: SearchValue, pruned: Array<PrunedMove>, } | { "type": "tt_hit", node: number, value: SearchValue, } | { "type": "return", node: number, value: SearchValue, } | { "type": "best_move", node: number, move: string, value: SearchValue, } | { "type": "truncated", nodes: number, };

/**
 * A report's counters: a search's counts (`elapsed_ms` rounded to
 * microseconds) and the speed.
 */
export type SearchReportStats = { 
/**
 * Nodes per second, rounded.
 */
nodesPerSecond: number, 
/**
 * States entered (for MCTS: tree nodes created).
 */
nodes: number, 
/**
 * Leaves evaluated (terminal or heuristic).
 */
leaves: number, 
/**
 * Alpha-beta cut-offs.
 */
cutoffs: number, 
/**
 * Transposition-table hits that ended a node.
 */
ttHits: number, 
/**
 * MCTS iterations (simulations): one per descent, whether it ends in
 * a random playout or on a terminal node already in the tree.
 */
playouts: number, 
/**
 * Deepest completed iteration (iterative deepening) or tree depth.
 */
depth: number, elapsedMs: number, };

/**
 * The result of a search (`SearchResult` in JS). Fields that do not apply
 * are left out: `tree`, `labels` and `paths` are for abstract trees,
 * `engine` for games, `plan` for best-first, `events` and the other trace
 * fields for a search with `trace`.
 */
export type SearchResult = { 
/**
 * `"tree"`, or the game's label (`"game"` in JS).
 */
game: string, 
/**
 * Trees only: the tree (reordered when `ordering` is given).
 */
tree?: AbstractTree, 
/**
 * Games: the engine that ran, "fast" or "interpreter".
 */
engine?: string, 
/**
 * Why the interpreter ran although "auto" asked for the fast engine.
 */
engineFallback?: string, 
/**
 * The move ordering, when not the game's own.
 */
ordering?: Ordering, 
/**
 * Reordered trees: each node's children's original numbers.
 */
labels?: Array<TreeLabel>, algorithm: Algorithm, 
/**
 * The searching role.
 */
role: string, heuristic: string, 
/**
 * The value for the role on the 0..100 goal scale (trees: the MAX
 * value).
 */
value: SearchValue, 
/**
 * The chosen move (trees: the child number, `"1"` the first), or null
 * when there is none.
 */
bestMove: string | null, 
/**
 * The value is exact (no heuristic estimate was used).
 */
solved: boolean, 
/**
 * Deepest completed iteration / plan length.
 */
depth: number, stats: SearchReportStats, 
/**
 * Minimax and alpha-beta: the counts of each pass (`stats` are their
 * totals).
 */
iterations?: Array<SearchIteration>, 
/**
 * Best-first: our moves to the chosen node.
 */
plan?: Array<string>, 
/**
 * Best-first: the plan reaches a terminal state.
 */
complete?: boolean, 
/**
 * Best-first: the whole space was searched.
 */
exhausted?: boolean, 
/**
 * With `trace`: the node cap cut the record.
 */
truncated?: boolean, 
/**
 * With `trace`: the node cap.
 */
nodeCap?: number, 
/**
 * With `trace`: the states the events index (sorted fluents).
 */
states?: Array<Array<string>>, 
/**
 * With `trace`: the events in order.
 */
events?: Array<TraceEvent>, 
/**
 * With `trace`: the principal variation of the first search, as node
 * ids from its root (`trace::principal_variation`).
 */
principalVariation?: Array<number>, 
/**
 * Trees with `trace`: each state's path of child numbers from the
 * root (null: not a tree node).
 */
paths?: Array<Array<number> | null>, 
/**
 * Trees with `trace`: every node of the (reordered) tree, searched or
 * not, with who chooses there, so a page can draw the whole tree.
 */
shape?: Array<TreeShapeNode>, 
/**
 * GDL-II games with `trace`: the searching role's information sets,
 * groups of node ids where it chooses after the same own moves and
 * percepts (`search::information_sets`).
 */
informationSets?: Array<Array<number>>, };

/**
 * Options of `runMatch` (all optional).
 */
export type MatchOptions = { 
/**
 * Games to play (default 10).
 */
games?: number, 
/**
 * Seed of the players (default 1).
 */
seed?: number, 
/**
 * Joint moves per game at most (default 1000).
 */
maxSteps?: number, 
/**
 * The state machine (default "auto").
 */
engine?: EngineChoice, };

/**
 * One finished game.
 */
export type MatchGameRecord = { game: number, 
/**
 * Player index for each role (GDL-II's `random` role: the number of
 * players, as no player sits there).
 */
seats: Array<number>, 
/**
 * Goal value of each role (0 when none is derivable).
 */
goals: Array<number>, steps: number, terminal: boolean, 
/**
 * GDL-II games only: per joint move, what each role perceived
 * (`sees`, role order, sorted).
 */
percepts?: Array<Array<Array<string>>>, };

/**
 * A player's results over a match.
 */
export type MatchPlayerSummary = { name: string, spec: string, games: number, 
/**
 * Mean goal value over the games.
 */
meanGoal: number, 
/**
 * 95% confidence interval of the mean goal, clipped to 0..100.
 */
ci95: [number, number], wins: number, draws: number, losses: number, 
/**
 * Moves chosen.
 */
moves: number, msPerMove: number, nodesPerSecond: number, playoutsPerSecond: number, 
/**
 * Mean over its moves of the deepest completed iteration (MCTS: tree
 * depth).
 */
meanDepth: number, };

/**
 * The result of a match (`MatchResult` in JS).
 */
export type MatchResult = { game: string, 
/**
 * The engine that ran.
 */
engine: string, 
/**
 * Why the interpreter ran although "auto" asked for the fast engine.
 */
engineFallback?: string, games: number, seed: number, roles: Array<string>, 
/**
 * In the order the players were given.
 */
players: Array<MatchPlayerSummary>, 
/**
 * One record per game.
 */
results: Array<MatchGameRecord>, };

/**
 * Options of `explain` (CLI flags; camelCase in JS).
 */
export type ExplainOptions = { 
/**
 * Joint moves from the initial state, one move per role in role order.
 */
moves?: Array<Array<string>>, 
/**
 * The state to start from, as its fluents (default: the initial
 * state); `moves` are played from it.
 */
from?: Array<string>, 
/**
 * The role whose moves are explained (default: the one with a choice).
 */
role?: string, 
/**
 * `fjo` (default), `hff`, `hadd`, `hmax`, or any other heuristic name.
 */
heuristic?: string, 
/**
 * The planning heuristics' action costs: `default` (thesis 4.5) or
 * `thesis` (the turn passing free: the thesis's tic-tac-toe table).
 */
costs?: 'default' | 'thesis', 
/**
 * The state machine (default "auto").
 */
engine?: EngineChoice, 
/**
 * Time limit in milliseconds (default [`EXPLAIN_MS`]); the CLI's
 * `--seconds` is the job's limit around it.
 */
ms?: number, };

/**
 * Options of `game.explain(state, options)` (all optional).
 */
export type StateExplainOptions = { 
/**
 * The role whose moves are explained (default: the one with a choice).
 */
role?: string, 
/**
 * `fjo` (default), `hff`, `hadd`, `hmax`, or any other heuristic name.
 */
heuristic?: string, 
/**
 * The planning heuristics' action costs: `default` or `thesis`.
 */
costs?: 'default' | 'thesis', };

/**
 * The distances of one goal formula `T_q` (None: unreachable).
 */
export type GoalDistance = { 
/**
 * The goal value.
 */
goal: number, 
/**
 * `goal − 50`, the weight in f_JO.
 */
q: number, hMax: number | null, hAdd: number | null, hFf: number | null, 
/**
 * The relaxed plan's actions, by layer (other roles' moves included,
 * written `role: move`).
 */
plan: Array<string>, 
/**
 * For each action of `plan`, the board cells its move names (filled by
 * `explain` when the game has a board: `[column, row]` or `[column,
 * row, layer]`), for drawing the plan as numbered marks.
 */
planCells?: Array<Array<Array<string>>>, };

export type ExplainedReply = { 
/**
 * The other roles' moves, in role order.
 */
moves: Array<string>, value: number | null, };

/**
 * One legal move of the role and the value after it.
 */
export type ExplainedMove = { move: string, 
/**
 * With simultaneous replies: the minimum over them.
 */
value: number | null, terminal: boolean, goals: Array<GoalDistance>, 
/**
 * With several joint replies of the other roles: each one's value.
 */
replies?: Array<ExplainedReply>, 
/**
 * The board cells the move changes (the same after every reply):
 * `[column, row]` or `[column, row, layer]`; empty without a board.
 */
cells?: Array<Array<string>>, };

/**
 * The explanation of one position.
 */
export type Explanation = { role: string, heuristic: string, terminal: boolean, 
/**
 * The position's own value (None: an unreachable distance).
 */
value: number | null, 
/**
 * The position's goal distances (planning heuristics, non-terminal).
 */
goals?: Array<GoalDistance>, moves: Array<ExplainedMove>, 
/**
 * The move with the best value (what a one-ply search on this
 * heuristic plays), for the board's highlights.
 */
chosen?: string, 
/**
 * The move with the second-best value.
 */
runnerUp?: string, };

/**
 * A game's header, as written at the top of its file.
 */
export type GameHeader = { 
/**
 * The first comment line.
 */
title: string, category: string | null, 
/**
 * The fluent drawn as the board; `None` for `Board: none` or no field.
 */
board: string | null, credit: string | null, description: string | null, 
/**
 * `false` only for `Well-formed: no` (a game that shows what the
 * analysis refutes).
 */
wellFormed: boolean, };

/**
 * A library game: its name (the file name without `.kif`) and header.
 */
export type LibraryGame = { name: string, 
/**
 * The first comment line.
 */
title: string, category: string | null, 
/**
 * The fluent drawn as the board; `None` for `Board: none` or no field.
 */
board: string | null, credit: string | null, description: string | null, 
/**
 * `false` only for `Well-formed: no` (a game that shows what the
 * analysis refutes).
 */
wellFormed: boolean, };

/**
 * A game's metadata.
 */
export type RepositoryGame = { key: string, version: number, gameName: string | null, description: string | null, rulesheet: string, 
/**
 * Where the rules are.
 */
rulesUrl: string, };

/**
 * Options of `structure` (all optional).
 */
export type StructureOptions = { 
/**
 * Simulation seed (default 1).
 */
seed?: number, 
/**
 * States to sample (default 1000).
 */
states?: number, 
/**
 * Time limit of the simulation in ms (default 5000).
 */
ms?: number, };

/**
 * Options of `renderBoard` (all optional).
 */
export type RenderBoardOptions = { 
/**
 * Pixels per square (default 40).
 */
cell?: number, 
/**
 * Coordinates along the edges (default true).
 */
labels?: boolean, };

export type StructureSuccessor = { relation: string, chain: Array<string>, };

export type StructureOrder = { relation: string, successor: string, 
/**
 * `(less 1 2)`: true; `(greater 2 1)`: false.
 */
ascending: boolean, reflexive: boolean, };

export type StructureBoard = { fluent: string, arity: number, 
/**
 * Argument positions (0-based) of the coordinates and the contents.
 */
coordinates: Array<number>, contents: Array<number>, 
/**
 * Number of values of each coordinate (its domain).
 */
size: Array<number>, 
/**
 * Whether each coordinate is ordered by a successor relation.
 */
ordered: Array<boolean>, 
/**
 * The successor relation ordering each coordinate.
 */
order: Array<string | null>, 
/**
 * The values of each coordinate, in order.
 */
values: Array<Array<string>>, pieces: Array<string>, markers: Array<string>, 
/**
 * `square`, `hex` when each cell has six neighbours (`hexgrid`),
 * `lines` when the cells are points joined by lines (`linegrid`), or
 * `ring` when a 1-D board's places form a cycle (`ring`; its values
 * are then in the ring's order), or `lattice` when a 1-D board's
 * places lie on a triangular or square lattice (`lattice`; see
 * `places`).
 */
geometry: string, 
/**
 * On a hex board, how far (in cells) each row lies right of the row
 * of the previous value of the second coordinate (±0.5); else 0.
 */
shear: number, 
/**
 * How each content is drawn (`pieces`).
 */
drawings: Array<PieceDrawing>, 
/**
 * How the board is drawn: `grid`, `pegs` (discs stacked on pegs, one
 * per column), `mancala` (two rows of pits, a store at each end) or
 * `stacks` (blocks on blocks on a table) (`shapes`).
 */
shape: string, 
/**
 * On a pegs board, the pieces from the smallest to the largest.
 */
sizes: Array<string>, 
/**
 * On a mancala board, the two stores' cells as `[column, row]`.
 */
stores: Array<Array<string>>, 
/**
 * On a `lines` board, each line between two neighbouring points once,
 * as `[x, y, u, v]`.
 */
links: Array<Array<string>>, 
/**
 * On a `lattice` board, each value's position `[x, y]` in cells from
 * the top left (neighbours one cell apart).
 */
places: Array<[number, number]>, };

export type StructureCounter = { fluent: string, argument: number, successor: string, 
/**
 * The largest value seen, when a terminal state was seen there.
 */
limit: string | null, };

export type StructureQuantity = { fluent: string, argument: number, 
/**
 * Arguments that select one of several quantities (a board's
 * coordinates, e.g. the heap of `(heap a 3)`); empty for a singleton.
 */
inputs: Array<number>, successor: string, 
/**
 * The values in order.
 */
values: Array<string>, };

/**
 * A game's state drawn as a row of lamps or places.
 */
export type StructureScene = { 
/**
 * `lamps`, `rooms` or `doors`.
 */
kind: string, 
/**
 * The lamps (fluents without arguments) or the places, in order.
 */
places: Array<string>, 
/**
 * The fluents with one argument drawn at the places.
 */
things: Array<StructureThing>, 
/**
 * The counters drawn as numbers after the places.
 */
numbers: Array<string>, };

export type StructureThing = { fluent: string, 
/**
 * `agent`, `item` or `cover`.
 */
look: string, };

export type FluentDomain = { fluent: string, arity: number, sizes: Array<number | null>, };

/**
 * The structure of a game. Terms are canonical text.
 */
export type Structure = { roles: Array<string>, turnTaking: boolean, noopMoves: Array<string>, teams: Array<Array<string>>, constantSum: number | null, 
/**
 * Each role's goal values.
 */
goalValues: Record<string, number[]>, successors: Array<StructureSuccessor>, orders: Array<StructureOrder>, boards: Array<StructureBoard>, counters: Array<StructureCounter>, quantities: Array<StructureQuantity>, 
/**
 * Domain size of every fluent argument (`null`: unbounded).
 */
domains: Array<FluentDomain>, 
/**
 * The feature names (heuristics `feature:NAME:max|min`, `features`).
 */
features: Array<string>, 
/**
 * A game without a drawable board drawn as lamps, rooms or doors
 * (`scene`), else `null`.
 */
scene: StructureScene | null, statesSampled: number, terminalStatesSampled: number, 
/**
 * Where each named relation or fluent is first defined in the text
 * (filled by [`locate`]: the CLI's JSON, npm, the page's links).
 */
definedAt: Record<string, Position>, 
/**
 * Every rule that defines each of those names: `[from, to]` offsets
 * in UTF-16 code units (filled by [`locate`]: the page highlights them
 * in the editor).
 */
rulesAt: Record<string, [number, number][]>, };

/**
 * Options of `groundReport` (all optional).
 */
export type GroundReportOptions = { 
/**
 * The grounding's time budget in ms (default 20000).
 */
ms?: number, };

/**
 * How instantiation ended.
 */
export type GroundOutcome = "grounded" | "refused" | "stopped";

/**
 * The ground atoms of one relation.
 */
export type GroundRelation = { 
/**
 * `name/arity`, or `true name/arity` for the state's tables.
 */
relation: string, atoms: number, };

/**
 * The rules of one relation and the instances they produced.
 */
export type GroundRuleCount = { 
/**
 * `name/arity` of the head.
 */
head: string, 
/**
 * Rules of the program with this head.
 */
rules: number, 
/**
 * 1-based line of the first of them.
 */
line: number, 
/**
 * The first rule's text (whitespace collapsed, shortened).
 */
text: string, 
/**
 * Rule instances, with those of the auxiliary rules its bodies were
 * split into.
 */
instances: number, };

/**
 * The size of the fast engine's network.
 */
export type GroundNetwork = { 
/**
 * Ground atoms (propositions), auxiliaries included.
 */
atoms: number, 
/**
 * Rule instances (facts included) and their literals.
 */
instances: number, literals: number, 
/**
 * Base propositions (the state), input propositions (`does`), legal
 * propositions.
 */
base: number, inputs: number, legals: number, 
/**
 * Gates (AND/OR/NOT as threshold gates) and links between them.
 */
gates: number, links: number, cyclicComponents: number, 
/**
 * The longest path from a base or input proposition.
 */
depth: number, bytes: number, 
/**
 * Guarded ANDs (`docs/fast-engine.md`): the propositions tried as
 * guards, those a short walk found cheaper than the counts and kept,
 * and the ANDs the kept ones guard.
 */
guardCandidates: number, guards: number, guardedAnds: number, 
/**
 * The independent subgames (`subgames.rs`), where there are two or
 * more; else empty.
 */
subgames: Array<GroundSubgame>, };

/**
 * One independent subgame: the parts of the state that the moves change
 * apart from each other (connectFourSimultaneous's two boards).
 */
export type GroundSubgame = { 
/**
 * Base propositions it changes (those no move changes, in every
 * subgame, included), its legal propositions, and the roles with
 * moves in it.
 */
base: number, legals: number, movers: number, };

/**
 * Where and why instantiation stopped.
 */
export type GroundStop = { reason: string, 
/**
 * The rule with the most estimated instances: `name/arity` of its
 * head, its 1-based line and its estimated instances.
 */
rule: string | null, line: number | null, estimatedInstances: number | null, 
/**
 * The estimate of the whole grounding.
 */
estimatedAtoms: number, estimatedLiterals: number, };

/**
 * What instantiation did to a game.
 */
export type GroundReport = { outcome: GroundOutcome, 
/**
 * Per relation of the program (and state table) its ground atoms,
 * most first.
 */
relations: Array<GroundRelation>, 
/**
 * Atoms of the auxiliary relations splitting and typing created.
 */
auxiliaryAtoms: number, 
/**
 * What decomposition did: auxiliary rules made by splitting bodies,
 * rules kept as exclusions (ORs over prefixes and suffixes instead of
 * every pair, `exclusion.rs`) and rules of `k` distinct values kept as
 * counts (one "at least k" gate instead of every ordered choice,
 * `count.rs`), and recursions that carry their answer through
 * rewritten as folds (`fold.rs`).
 */
auxiliaryRules: number, exclusions: number, countingRules: number, folds: number, 
/**
 * The relations whose rules produced the most instances, most first.
 */
topRules: Array<GroundRuleCount>, network: GroundNetwork | null, stop: GroundStop | null, 
/**
 * A game refused whole whose moves ground without its end tests
 * (`split.rs`): what the interpreter answers, `"goal"` or
 * `"terminal and goal"`; the counts and the network are then those of
 * the rest, the hybrid engine's network.
 */
hybrid: 'goal' | 'terminal and goal' | null, 
/**
 * Rule instances in all (facts included).
 */
groundRuleCount: number, 
/**
 * The ground rules as KIF, when there are at most
 * [`MAX_LISTED_RULES`]; else empty.
 */
groundRules: Array<string>, ms: number, };

/**
 * Options of a solve (`solve`, `SolveJob`; all optional).
 */
export type SolveOptions = { 
/**
 * Seconds for the exploration (default 60); then the solution is partial.
 */
seconds?: number, 
/**
 * Distinct states at most (default 100000000).
 */
maxStates?: number, 
/**
 * The state machine: "auto" (default), "fast" or "interpreter".
 */
engine?: EngineChoice, };

/**
 * Options of `solveSymbolic` (all optional).
 */
export type SymbolicOptions = { 
/**
 * Seconds, grounding included (default 60); then the result is partial.
 */
seconds?: number, 
/**
 * Nodes of one BDD at most (default 4000000).
 */
maxNodes?: number, 
/**
 * The BDD variable order: "cells" (default) or "grounder".
 */
order?: SymbolicOrder, 
/**
 * Only count the reachable states (per layer, and the terminal ones),
 * no values (default false).
 */
countOnly?: boolean, };

/**
 * One progress report of a long call (`onProgress`'s argument).
 */
export type JobProgress = { 
/**
 * What is running ("solve --symbolic: reachable layers", ...).
 */
phase: string, 
/**
 * Counts so far ("layer 5: 1,234 states").
 */
detail: string, elapsedMs: number, };

/**
 * What `gdlkit solve --symbolic` reports (`solveSymbolic` in JS).
 */
export type SymbolicSummary = { concept: SolveConcept | null, roles: Array<string>, complete: boolean, stopped: string | null, 
/**
 * The initial state's goals under perfect play (`None`: unknown).
 */
initial: Array<number> | null, 
/**
 * States by value, best first for the first role.
 */
byValue: Array<SymbolicCount>, stats: SymbolicStats, };

/**
 * Figures of a symbolic solve.
 */
export type SymbolicStats = { 
/**
 * Reachable states (exact; of the layers done when stopped early).
 */
states: number, terminal: number, 
/**
 * Reachable states per breadth-first layer.
 */
layers: Array<number>, 
/**
 * Seconds spent finding each layer (0 for the initial state), also
 * in runs before a resumed count's.
 */
layerSeconds: Array<number>, 
/**
 * Every successor of a layer's states is in the next layer (then the
 * classification goes backwards layer by layer).
 */
layered: boolean, 
/**
 * Base propositions (BDD variables: twice as many).
 */
propositions: number, 
/**
 * The variable order used.
 */
order: SymbolicOrder, 
/**
 * Transition relations (moves that are legal somewhere) and their nodes.
 */
relations: number, relationNodes: number, 
/**
 * The largest BDD built.
 */
peakNodes: number, seconds: number, };

/**
 * States with one value (`goals` `None`: unknown).
 */
export type SymbolicCount = { goals: Array<number> | null, states: number, };

/**
 * Which variable order (docs/solve.md has them measured).
 */
export type SymbolicOrder = "grounder" | "cells";

/**
 * The solution concept applied.
 */
export type SolveConcept = "one-player" | "zero-sum" | "general-sum";

/**
 * A state's value under perfect play.
 */
export type SolvedValue = { 
/**
 * Each role's goal, in role order.
 */
goals: Array<number>, 
/**
 * Moves (plies) to the end under that play.
 */
movesToEnd: number, };

/**
 * Number of states with one value (`goals` `None`: unknown).
 */
export type SolveValueCount = { goals: Array<number> | null, states: number, };

/**
 * Figures of a solve.
 */
export type SolveStats = { 
/**
 * Distinct reachable states found.
 */
states: number, 
/**
 * Of which expanded (all of them when complete).
 */
expanded: number, terminal: number, 
/**
 * Edges of the successor graph (the mover's moves; where both roles
 * choose, every pair of moves).
 */
edges: number, 
/**
 * States where both roles choose at once.
 */
simultaneous: number, seconds: number, statesPerSecond: number, 
/**
 * Bytes of the explored graph per state (states, index, edges, values).
 */
bytesPerState: number, 
/**
 * Bytes the solve held at most (estimate from its containers).
 */
peakBytes: number, };

/**
 * Where a solve is; cheap to produce after every step.
 */
export type SolveProgress = { 
/**
 * Distinct states found so far.
 */
states: number, 
/**
 * States expanded.
 */
expanded: number, edges: number, 
/**
 * States given their value so far (the packed solver's backward
 * pass; the graph solver values all at once when it finishes).
 */
valued: number, 
/**
 * Nothing left to step: `finish` gives the solution.
 */
done: boolean, };

/**
 * What `gdlkit solve` and the JavaScript `solve()` report.
 */
export type SolveSummary = { concept: SolveConcept, roles: Array<string>, 
/**
 * `"fast"`, `"hybrid"` or `"interpreter"`.
 */
engine: string, complete: boolean, 
/**
 * Why the exploration stopped early (a partial solution).
 */
stopped: string | null, 
/**
 * The initial state's value under perfect play (`None`: unknown).
 */
initial: SolvedValue | null, 
/**
 * States by value, best first for the first role.
 */
byValue: Array<SolveValueCount>, stats: SolveStats, };

/**
 * What a value means for one role.
 */
export type SolvedOutcome = "win" | "draw" | "loss" | "score";

/**
 * One legal move of the role to move and the value it leads to.
 */
export type SolvedMove = { 
/**
 * The move's text, as the game's legal moves are written.
 */
move: string, 
/**
 * The successor's value (null: the solution leaves it open).
 */
value: SolvedValue | null, 
/**
 * What that value means for the role to move.
 */
outcome: SolvedOutcome | null, 
/**
 * The move keeps the position's value (fastest win, slowest loss).
 */
best: boolean, };

/**
 * A position's solved value and its moves' values.
 */
export type SolvedPosition = { 
/**
 * The role to move (the only one with a choice); null when the
 * position is terminal or no role has a choice.
 */
role: number | null, 
/**
 * The position's value (null: not in the solution, or left open).
 */
value: SolvedValue | null, 
/**
 * What the position's value means for the role to move.
 */
outcome: SolvedOutcome | null, terminal: boolean, 
/**
 * The role to move's legal moves (empty when `role` is null).
 */
moves: Array<SolvedMove>, 
/**
 * The move a player of `role` makes here from the solution
 * ([`Solution::solved_move`]); null when it does not settle the choice.
 */
play: string | null, 
/**
 * The solution is complete (else values are those proved on the
 * part explored).
 */
complete: boolean, };

/**
 * Options of an analysis (`analyze`, `AnalysisJob`; all optional).
 */
export type AnalysisOptions = { 
/**
 * Exhaustive only up to this many reachable states (default 2000000).
 */
budget?: number, 
/**
 * Random playouts when the state space exceeds the budget (default 200).
 */
playouts?: number, 
/**
 * Joint moves per playout at most (default 1000).
 */
depth?: number, 
/**
 * Seed of the playouts (default 1).
 */
seed?: number, 
/**
 * The state machine: "auto" (default: the grounded fast engine, or the
 * interpreter when the game does not ground in budget), "fast" or
 * "interpreter".
 */
engine?: EngineChoice, };

export type AnalysisPhase = "exploring" | "checking" | "sampling" | "done";

export type AnalysisMode = "exhaustive" | "sampled";

/**
 * Where a job is; cheap to produce after every step.
 */
export type AnalysisProgress = { phase: AnalysisPhase, 
/**
 * Mode as far as known (`exhaustive` until the budget is exceeded).
 */
mode: AnalysisMode, 
/**
 * Distinct states found so far.
 */
states: number, 
/**
 * States expanded by the exploration.
 */
expanded: number, terminalStates: number, maxStates: number, playouts: number, maxPlayouts: number, 
/**
 * Work units done (state expansions weighted by joint moves, playout steps).
 */
work: number, done: boolean, };

/**
 * One property: proved (`Some(true)`), refuted (`Some(false)`, usually with
 * a counterexample) or not established (`None`).
 */
export type AnalysisProperty = { holds: boolean | null, 
/**
 * Joint moves from the initial state to the violation (canonical move
 * text per role, role order).
 */
counterexample: Array<Array<string>> | null, detail: string, };

/**
 * The six properties of an analysis (docs/analysis.md).
 */
export type AnalysisProperties = { terminates: AnalysisProperty, playable: AnalysisProperty, goalsDefined: AnalysisProperty, monotone: AnalysisProperty, weaklyWinnable: AnalysisProperty, stronglyWinnable: AnalysisProperty, };

/**
 * The report of an analysis as `gdlkit analyze --format json` prints it
 * (`AnalysisReport` in JS).
 */
export type AnalysisReport = { mode: AnalysisMode, 
/**
 * Distinct reachable states found (all of them in exhaustive mode).
 */
states: number, 
/**
 * Of which terminal.
 */
terminalStates: number, 
/**
 * The largest breadth-first depth (sampled: the deepest state reached).
 */
maxDepth: number, properties: AnalysisProperties, };

/**
 * One step of a replay: `legal` and `goals` keyed by role name.
 */
export type ReplayStep = { 
/**
 * The state's fluents, sorted.
 */
state: Array<string>, terminal: boolean, legal: { [key in string]: Array<string> }, goals: { [key in string]: Array<number> }, 
/**
 * GDL-II games only: per role, what it perceived on the joint move
 * that led to this step (absent at the initial step).
 */
percepts?: { [key in string]: Array<string> }, };

/**
 * A replay in the conformance format.
 */
export type ReplayResult = { roles: Array<string>, steps: Array<ReplayStep>, };

/**
 * The result of one CLI run (`runCli`).
 */
export type CliResult = { stdout: string, stderr: string, 
/**
 * The exit code.
 */
code: number, 
/**
 * The files the command wrote, by path.
 */
written: { [key in string]: string }, };

/**
 * An abstract tree with its children reordered (`reorderTree`).
 */
export type ReorderedTree = { tree: AbstractTree, 
/**
 * The tree as text.
 */
text: string, 
/**
 * Each node's children's original numbers.
 */
labels: Array<TreeLabel>, };

/**
 * A player spec parsed by the one registry of players (`parsePlayerSpec`).
 */
export type ParsedPlayerSpec = { 
/**
 * The canonical player name (`bestfirst` for `best-first`).
 */
name: string, 
/**
 * The spec's options as written (`ms`, `heuristic`, ...).
 */
options: { [key in string]: string }, };

/**
 * One player of the registry [`PLAYERS`] (`players()` in JS).
 */
export type PlayerInfo = { 
/**
 * The canonical name (`bestfirst`; `best-first` is an alias).
 */
name: string, 
/**
 * The name for people (`best-first`, `alpha-beta`).
 */
label: string, description: string, 
/**
 * It searches abstract trees with the lecture's trace, so the tree
 * view can draw its search (minimax and alpha-beta).
 */
drawsTree: boolean, };

/**
 * One evaluation function of the registry [`HEURISTICS`] (`heuristics()`
 * in JS: the tree view's leaf evaluations, the play view's Why? panel).
 */
export type HeuristicInfo = { 
/**
 * The name for `heuristic=` options (`feature:NAME:max|min` is a
 * pattern).
 */
name: string, 
/**
 * The name for people.
 */
label: string, description: string, 
/**
 * `explain` reports a distance for it (h_FF, h_add, h_max): lower is
 * better.
 */
distance: boolean, 
/**
 * The Why? panel offers it: the planning heuristics and the two a
 * beginner compares them with (not the constant, not a pattern).
 */
explain: boolean, };

/**
 * What the master needs from one member's search: the move (a `TermId`
 * natively, its text across workers), the root value, whether it is
 * proven, and the depth completed.
 */
export type EnsembleMemberMove = { 
/**
 * The member's evaluation function (`none`: the exhaustive search).
 */
heuristic: string, 
/**
 * Its move (`null` when the role has none).
 */
move: string | null, 
/**
 * The root value on the 0..100 scale.
 */
value: number, 
/**
 * No estimate influenced the value.
 */
solved: boolean, 
/**
 * The deepest iteration completed.
 */
depth: number, };

/**
 * One ensemble member's result (`EnsembleMember.search`): its move, value
 * and the counters of its search.
 */
export type EnsembleMemberResult = { stats: SearchStats, 
/**
 * The member's evaluation function (`none`: the exhaustive search).
 */
heuristic: string, 
/**
 * Its move (`null` when the role has none).
 */
move: string | null, 
/**
 * The root value on the 0..100 scale.
 */
value: number, 
/**
 * No estimate influenced the value.
 */
solved: boolean, 
/**
 * The deepest iteration completed.
 */
depth: number, };

/**
 * The ensemble's choice among its members' results (`ensembleChoose`).
 */
export type EnsembleChoice = { 
/**
 * The move's text (`null` when no member has one).
 */
move: string | null, 
/**
 * The index of the member followed.
 */
index: number | null, 
/**
 * Its evaluation function.
 */
heuristic: string | null, };

/**
 * What the combination rule reads of one worker's search (`T`: the move,
 * a term natively, its text between workers).
 */
export type AlphaBetaResult = { 
/**
 * The worker's move (`None` only when the role has none).
 */
move: string | null, value: number, 
/**
 * No estimate influenced the value (a proven result).
 */
solved: boolean, 
/**
 * The deepest completed iteration (0: the first was cut short).
 */
depth: number, };

/**
 * One parallel alpha-beta worker's result (`AlphaBetaWorker.rootResult`).
 */
export type AlphaBetaRootResult = { stats: SearchStats, 
/**
 * The worker's move (`None` only when the role has none).
 */
move: string | null, value: number, 
/**
 * No estimate influenced the value (a proven result).
 */
solved: boolean, 
/**
 * The deepest completed iteration (0: the first was cut short).
 */
depth: number, };

/**
 * Parallel alpha-beta's choice among the workers' results (`alphabetaChoose`).
 */
export type AlphaBetaChoice = { 
/**
 * The number of the worker whose move is played (`null`: none has one).
 */
worker: number | null, 
/**
 * Its move's text.
 */
move: string | null, value: number | null, solved: boolean, depth: number, };

/**
 * The statistics of one role's moves at the root of a search: per legal
 * move (in the machine's order) its visits, summed reward in [0, 1] and,
 * from MCTS-Solver, its proven value (where the role alone moves).
 * Empty `moves` means the root is terminal (or nobody can move).
 * `Mv` is the move: a term id natively, the move's text when statistics
 * travel between Web Workers or Node worker threads.
 */
export type RootStats = { moves: Array<string>, visits: Array<number>, 
/**
 * Summed rewards in [0, 1] per move.
 */
totals: Array<number>, 
/**
 * Iterations that produced these statistics.
 */
playouts: number, 
/**
 * Per move its proven value in [0, 1] (`null`: not proven); empty
 * when the search proves nothing (plain MCTS).
 */
proven: Array<number | null>, 
/**
 * Per proven move the plies to the end along its proof (`null`: not
 * known); empty when nothing is proven.
 */
plies: Array<number | null>, };

/**
 * One root-parallel MCTS worker's result (`MctsWorker.rootStats`).
 */
export type MctsRootResult = { stats: SearchStats, moves: Array<string>, visits: Array<number>, 
/**
 * Summed rewards in [0, 1] per move.
 */
totals: Array<number>, 
/**
 * Iterations that produced these statistics.
 */
playouts: number, 
/**
 * Per move its proven value in [0, 1] (`null`: not proven); empty
 * when the search proves nothing (plain MCTS).
 */
proven: Array<number | null>, 
/**
 * Per proven move the plies to the end along its proof (`null`: not
 * known); empty when nothing is proven.
 */
plies: Array<number | null>, };

/**
 * Root-parallel MCTS's choice over the merged statistics (`mctsChoose`).
 */
export type MctsChoice = { 
/**
 * The chosen move's text (`null` at a terminal root).
 */
move: string | null, 
/**
 * Its mean reward on the 0..100 scale.
 */
value: number | null, 
/**
 * The workers' statistics merged.
 */
merged: RootStats, };

/**
 * The memory budget of the wasm instance and the memory the engine holds
 * now (`memoryBudget()`).
 */
export type MemoryBudget = { 
/**
 * The budget in MB (`setMemoryBudget`).
 */
budgetMb: number, 
/**
 * The memory in use in MB.
 */
usedMb: number, };

/**
 * Options of `new MctsWorker(kif, spec, options)` (all optional).
 */
export type MctsWorkerOptions = { 
/**
 * The seed of worker 0 (default 1); the others' are derived from it, as natively.
 */
seed?: number, 
/**
 * This worker's number (default 0).
 */
worker?: number, 
/**
 * The state machine (default "auto").
 */
engine?: EngineChoice, };

/**
 * Options of `new AlphaBetaWorker(kif, spec, options)` (all optional).
 */
export type AlphaBetaWorkerOptions = { 
/**
 * This worker's number (default 0: it searches as the one-core player).
 */
worker?: number, 
/**
 * The state machine (default "auto").
 */
engine?: EngineChoice, };

/**
 * Options of `new EnsembleMember(kif, spec, options)` (all optional).
 */
export type EnsembleMemberOptions = { 
/**
 * The member's number, in the order of `ensembleMembers` (default 0).
 */
member?: number, 
/**
 * The state machine (default "auto").
 */
engine?: EngineChoice, };

/**
 * One cell of a board in a state: its coordinates (`y` is `""` on a 1-D
 * board, `z` is `""` unless the board has 3 coordinates) and content text.
 */
export type BoardCell = { x: string, y: string, z: string, content: string, };

/**
 * A state's fluents split into the cells of one board and the rest: what
 * the page draws (`boardCells`), the text board and the SVG.
 */
export type BoardCells = { fluent: string, size: Array<number>, 
/**
 * The values of the coordinates in order; `ys` is `[""]` on a 1-D
 * board, `zs` is empty unless the board has 3 coordinates.
 */
xs: Array<string>, ys: Array<string>, zs: Array<string>, 
/**
 * The occupied cells (several fluents on one cell: contents joined by a space).
 */
cells: Array<BoardCell>, 
/**
 * The fluents that are not on this board, in the given order.
 */
rest: Array<string>, 
/**
 * The board's `geometry` and `shear` (see `StructureBoard`).
 */
geometry: string, shear: number, 
/**
 * How each content on the board is drawn (`pieces`): the structure's,
 * and one by its name alone for any content it did not list.
 */
drawings: Array<PieceDrawing>, 
/**
 * The board's `shape`, `sizes`, `stores`, `links` and `places` (see
 * `StructureBoard`).
 */
shape: string, sizes: Array<string>, stores: Array<Array<string>>, links: Array<Array<string>>, places: Array<[number, number]>, };

/**
 * The drawing of one content of a board.
 */
export type PieceDrawing = { 
/**
 * The content's text, as `BoardCell.content`.
 */
content: string, 
/**
 * `blank`, `disc`, `man`, `king`, `chess`, `mark`, `number`, `arrow`,
 * `burnt`, `tile` (a square piece: a trail, a crate), `token`, or
 * on shaped boards (`shapes`) `bar` (a disc on a peg) and `block`;
 * `card` and `die` for chance's draws (`chance`).
 */
kind: string, 
/**
 * The owning role (an index into the structure's roles), if known.
 */
owner: number | null, 
/**
 * The fill colour (CSS).
 */
colour: string, 
/**
 * A label of at most four characters (a chess glyph, a number, an
 * abbreviation of two; empty for shapes).
 */
label: string, 
/**
 * The drawing as SVG elements in a 100 × 100 view box (nest it in an
 * `<svg viewBox="0 0 100 100">`); every text is escaped and fits.
 */
svg: string, };

/**
 * What the file shows. JS: `{view, tree, game, gameName, title, attrs}`.
 */
export type StandaloneRequest = { 
/**
 * `tree` or `play` (default: tree for `tree`, play for a game).
 */
view?: 'tree' | 'play', 
/**
 * A lecture tree such as `((3 12 8) (2 4 6))` instead of a game.
 */
tree?: string, 
/**
 * The game's text.
 */
game?: string, 
/**
 * The game's file name, for the title and error messages.
 */
gameName?: string, title?: string, 
/**
 * Element attributes by name ([`TREE_ATTRS`], [`PLAY_ATTRS`]); the
 * other view's are ignored.
 */
attrs?: { [key in string]: string }, };

/**
 * The options of `random`.
 */
export type RandomOptions = { };

/**
 * The options of `legal`.
 */
export type LegalOptions = { };

/**
 * The options of `minimax`.
 */
export type MinimaxOptions = { 
/**
 * depth limit in joint moves.
 */
depth?: number, 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * states entered per move.
 */
nodes?: number, 
/**
 * the evaluation at the depth limit (docs/search.md, Heuristics). Default `fuzzy`.
 */
heuristic?: string, };

/**
 * The options of `alphabeta`.
 */
export type AlphabetaOptions = { 
/**
 * depth limit in joint moves.
 */
depth?: number, 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * states entered per move.
 */
nodes?: number, 
/**
 * the evaluation at the depth limit (docs/search.md, Heuristics). Default `fuzzy`.
 */
heuristic?: string, 
/**
 * paranoid or max-n values; auto: max-n in two-role turn-taking games that are not zero-sum. Default `auto`.
 */
mode?: 'auto' | 'paranoid' | 'maxn', 
/**
 * threads searching, the budget per thread. Default `1`.
 */
threads?: number | 'auto', 
/**
 * Same as `threads`.
 */
cores?: number | 'auto', };

/**
 * The options of `bestfirst`.
 */
export type BestfirstOptions = { 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * states entered per move.
 */
nodes?: number, 
/**
 * the evaluation at the depth limit (docs/search.md, Heuristics). Default `fuzzy`.
 */
heuristic?: string, };

/**
 * The options of `mcts`.
 */
export type MctsOptions = { 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * playouts per move.
 */
playouts?: number, 
/**
 * playouts per move (wins over playouts).
 */
nodes?: number, 
/**
 * the UCT exploration constant; auto (solver only): from the game's length. Default `0.7`.
 */
c?: number | 'auto', 
/**
 * threads growing one tree, the budget per thread. Default `1`.
 */
threads?: number | 'auto', 
/**
 * Same as `threads`.
 */
cores?: number | 'auto', 
/**
 * playouts take a move that wins at once and avoid one that lets the opponent win at once; auto (solver only): unless that costs more than 20 successor states a step, the game ends at a set length, or its playouts take the moves that raise their mover's goal (chinese checkers). Default `off`.
 */
greedy?: boolean | 'on' | 'off' | 'auto', 
/**
 * MCTS-Solver: proven wins and losses, the tree kept between moves. Default `off`.
 */
solver?: boolean | 'on' | 'off', 
/**
 * solver only: the tree grown on the opponent's time by a player server. Default `on`.
 */
ponder?: boolean | 'on' | 'off', 
/**
 * solver only: rewards shifted at the end of exchanges of pieces, where the count tells something of the outcome, and a move that gains a latched piece (reversi's corners) tried first as a win and taken by playouts. Default `off`.
 */
eval?: 'material' | 'off', 
/**
 * solver only: forced wins and losses proven beside the tree; auto: where the material is counted, unless the game ends at a set length. Default `off`.
 */
tactics?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: one node per state; auto: where no material is counted. Default `auto`.
 */
transpositions?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: a move into a proven loss counts only at its node; auto: where the material is counted. Default `auto`.
 */
choke?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: where the moves change independent parts of the state (two boards), the part a move is in searched alone, the rest held; auto: where the fast engine finds parts that two roles or more move in. Default `auto`.
 */
subgames?: boolean | 'on' | 'off' | 'auto', };

/**
 * The options of `mcts-solver`.
 */
export type MctsSolverOptions = { 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * playouts per move.
 */
playouts?: number, 
/**
 * playouts per move (wins over playouts).
 */
nodes?: number, 
/**
 * the UCT exploration constant; auto (solver only): from the game's length. Default `auto`.
 */
c?: number | 'auto', 
/**
 * threads growing one tree, the budget per thread. Default `1`.
 */
threads?: number | 'auto', 
/**
 * Same as `threads`.
 */
cores?: number | 'auto', 
/**
 * playouts take a move that wins at once and avoid one that lets the opponent win at once; auto (solver only): unless that costs more than 20 successor states a step, the game ends at a set length, or its playouts take the moves that raise their mover's goal (chinese checkers). Default `auto`.
 */
greedy?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: the tree grown on the opponent's time by a player server. Default `on`.
 */
ponder?: boolean | 'on' | 'off', 
/**
 * solver only: rewards shifted at the end of exchanges of pieces, where the count tells something of the outcome, and a move that gains a latched piece (reversi's corners) tried first as a win and taken by playouts. Default `material`.
 */
eval?: 'material' | 'off', 
/**
 * solver only: forced wins and losses proven beside the tree; auto: where the material is counted, unless the game ends at a set length. Default `auto`.
 */
tactics?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: one node per state; auto: where no material is counted. Default `auto`.
 */
transpositions?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: a move into a proven loss counts only at its node; auto: where the material is counted. Default `auto`.
 */
choke?: boolean | 'on' | 'off' | 'auto', 
/**
 * solver only: where the moves change independent parts of the state (two boards), the part a move is in searched alone, the rest held; auto: where the fast engine finds parts that two roles or more move in. Default `auto`.
 */
subgames?: boolean | 'on' | 'off' | 'auto', };

/**
 * The options of `coolerjo`.
 */
export type CoolerjoOptions = { 
/**
 * depth limit in joint moves.
 */
depth?: number, 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * states entered per move.
 */
nodes?: number, };

/**
 * The options of `ensemble`.
 */
export type EnsembleOptions = { 
/**
 * members: the exhaustive search and one per heuristic. Default `4`.
 */
workers?: number, 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * the members' heuristics, a+b+... (default: fuzzy, mobility, then the game's features).
 */
heuristics?: string, 
/**
 * Web Workers the members run on in the page and npm (natively they take turns). Default `1`.
 */
cores?: number | 'auto', };

/**
 * The options of `hyperplay`.
 */
export type HyperplayOptions = { 
/**
 * time per move (the default when no other budget is given). Default `1000`.
 */
ms?: number, 
/**
 * playouts per move, over all the states searched.
 */
playouts?: number, 
/**
 * the UCT exploration constant (auto: 0.7). Default `0.7`.
 */
c?: number | 'auto', 
/**
 * states of the belief searched per move (all of them, by weight, when there are at most this many). Default `16`.
 */
samples?: number, };

/**
 * A player spec as an object: the player's name and its options
 * (`{name: 'mcts', ms: 200}`).
 */
export type PlayerSpecObject = { name: 'random' } & RandomOptions | { name: 'legal' } & LegalOptions | { name: 'minimax' } & MinimaxOptions | { name: 'alphabeta' } & AlphabetaOptions | { name: 'bestfirst' } & BestfirstOptions | { name: 'mcts' } & MctsOptions | { name: 'mcts-solver' } & MctsSolverOptions | { name: 'coolerjo' } & CoolerjoOptions | { name: 'ensemble' } & EnsembleOptions | { name: 'hyperplay' } & HyperplayOptions;
