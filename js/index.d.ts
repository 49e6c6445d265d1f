// TypeScript declarations of the gdlkit JavaScript API (`gdlkit`), for both
// the browser entry (index.js) and the Node entry (node.js). The option and
// result types are generated from the Rust types (js/types.d.ts, re-exported
// here; crate/wasm/src/typescript.rs); this file declares the functions and
// classes. Documentation: docs/js-api.md.

export * from './types.js';
import type {
  AbstractTree, AnalysisOptions, AnalysisProgress, AnalysisReport, CliResult, Diagnostic, EngineChoice, EngineInfo,
  // The parallel players' workers and the memory budget (generated).
  AlphaBetaChoice, AlphaBetaResult, AlphaBetaRootResult, EnsembleChoice, EnsembleMemberMove, EnsembleMemberResult,
  MctsChoice, MctsRootResult, MemoryBudget, RootStats, MctsWorkerOptions, AlphaBetaWorkerOptions, EnsembleMemberOptions,
  Explanation, ExplainOptions, FixOptions, FixResult, MatchGameRecord, MatchOptions, MatchResult, Ordering,
  ParsedPlayerSpec, PlayerInfo, PlayerSpecObject, PlayoutOptions, PlayoutSummary, RenderBoardOptions, ReorderedTree, ReplayResult,
  SearchOptions, SearchResult, SearchStats, StateDescription, StateExplainOptions, Structure, StructureOptions,
  LibraryGame, RepositoryGame, GroundReport, GroundReportOptions,
  SolveOptions, SolveProgress, SolveSummary, SolvedPosition, SolvedValue, SymbolicOptions, SymbolicSummary, JobProgress,
  BeliefView, SeenStep,
} from './types.js';

// Explicit resource management (`using`): declared here so that projects
// whose `lib` lacks `esnext.disposable` still compile (merges with it).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** Options of `new Game`. */
export interface GameOptions {
  /** "auto" (default: the fast engine when the game grounds, the hybrid when only its moves do), "fast" or "interpreter". */
  engine?: 'auto' | 'fast' | 'interpreter';
}

/** Options of `game.playouts`: `PlayoutOptions` and the state to start from. */
export type GamePlayoutsOptions = PlayoutOptions & {
  /** A state handle to start from (default the initial state). */
  from?: StateHandle;
};

/** Random playouts played a few at a time (the worker's `playouts` job). */
export class PlayoutJob {
  constructor(kif: string, options?: PlayoutOptions, engine?: { engine?: EngineChoice });
  /** Plays up to n more playouts; true when all are played. */
  step(n?: number): boolean;
  readonly done: number;
  result(): PlayoutSummary;
  free(): void;
}

/** What `gdlkit check --fix` does, on text. */
export function fix(text: string, options?: FixOptions): FixResult;

/** An abstract tree in another order. */
export function reorderTree(tree: string, ordering: Ordering): ReorderedTree;

/** Parses an abstract tree (a TypeError says what is wrong). */
export function parseTree(tree: string): AbstractTree;

/** A player spec parsed by the engine: the canonical name and the options. */
export function parsePlayerSpec(spec: PlayerSpec): ParsedPlayerSpec;

/** The players and search algorithms of the engine's one registry. */
export function players(): PlayerInfo[];

/** The player used unless told otherwise (`gdlkit serve`'s, `new Player(kif)`'s, the page's): `"mcts-solver"`. */
export function defaultPlayer(): string;

/** The evaluation functions for `heuristic=` options, the engine's one list. */
export function heuristics(): import('./types.js').HeuristicInfo[];

/** Where the CLI reads files: an object or Map of path to contents, or a function returning the contents (or undefined). */
export type CliFiles = Record<string, string> | Map<string, string> | ((path: string) => string | undefined | null);

/** Where the WebAssembly module comes from: a URL, a fetch Response, the bytes, or a compiled module. */
export type WasmSource = string | URL | Response | Promise<Response> | ArrayBuffer | ArrayBufferView | WebAssembly.Module;

/**
 * Loads the WebAssembly module, once (later calls return at once). In a
 * browser the default is `gdlkit_bg.wasm` next to the package's module; in
 * Node the module is loaded from the package files when `gdlkit` is
 * imported, and this resolves at once.
 */
export function init(input?: WasmSource | { wasm?: WasmSource }): Promise<void>;

/** Loads the module synchronously from its bytes or a compiled WebAssembly.Module. */
export function initSync(module: ArrayBuffer | ArrayBufferView | WebAssembly.Module | { module: ArrayBuffer | ArrayBufferView | WebAssembly.Module }): void;

/** Whether the WebAssembly module is loaded. */
export function isReady(): boolean;

/** The gdlkit version (the Rust crate's version). */
export function version(): string;

/** The game library embedded in the package (`gdlkit games`), sorted by name. */
export function games(): LibraryGame[];

/** The KIF text of the library game `name` (with or without `.kif`); throws an Error when there is none. */
export function gameText(name: string): string;

/** Where a GGP repository is, and how to fetch (default: the Stanford base repository, globalThis.fetch). */
export interface RepositoryOptions {
  repo?: string;
  fetch?: (url: string) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;
}
/** The Stanford base repository, http://games.ggp.org/base/. */
export const DEFAULT_REPOSITORY: string;
/** The keys of a GGP repository's games (ggp-base layout), sorted. */
export function repositoryGames(options?: RepositoryOptions): Promise<string[]>;
/** A game of a GGP repository: its metadata and its rules (KIF text). */
export function repositoryGame(key: string, options?: RepositoryOptions): Promise<RepositoryGame & { rules: string }>;

/** A state of a game: a handle into the game's table of states. */
export type StateHandle = number;

/** A role, by index (in `role` fact order) or by name. */
export type RoleRef = number | string;

/** Names of the errors gdlkit throws (the `name` of the Error). */
export type GdlErrorName = 'GdlDiagnosticsError' | 'GdlMoveError' | 'GdlEvalError' | 'GdlSearchError' | 'GdlCrashError';

/** Thrown when game text has errors: `diagnostics` holds them all. */
export interface GdlDiagnosticsError extends Error {
  name: 'GdlDiagnosticsError';
  diagnostics: Diagnostic[];
}

/** Thrown for a move that is not legal (`step`: the 1-based joint move number, from `replay`). */
export interface GdlMoveError extends Error {
  name: 'GdlMoveError';
  step?: number;
}

/** Thrown when the reasoner hits a resource limit. */
export interface GdlEvalError extends Error {
  name: 'GdlEvalError';
}

/**
 * Thrown when the WebAssembly instance trapped (a bug): it was rebuilt and
 * only this call failed; objects made before (games, players, jobs) are
 * gone and throw this error too. `cause`: the `WebAssembly.RuntimeError`.
 */
export interface GdlCrashError extends Error {
  name: 'GdlCrashError';
}

/** Narrows an unknown error to a gdlkit error with this name. */
export function isGdlError(error: unknown, name: 'GdlDiagnosticsError'): error is GdlDiagnosticsError;
export function isGdlError(error: unknown, name: 'GdlMoveError'): error is GdlMoveError;
export function isGdlError(error: unknown, name: 'GdlEvalError'): error is GdlEvalError;
export function isGdlError(error: unknown, name: 'GdlCrashError'): error is GdlCrashError;
export function isGdlError(error: unknown, name?: GdlErrorName): error is Error;

/**
 * Every diagnostic of a game text, sorted by position (lines and columns
 * 1-based; `from`/`to` UTF-16 offsets). Never throws for bad game text.
 */
export function check(text: string): Diagnostic[];

/**
 * The canonical layout of a game text (as `gdlkit fmt`; comments kept).
 * @throws {GdlDiagnosticsError} when the text has syntax errors.
 */
export function format(text: string): string;

/** Whether some diagnostic is an error (warnings and infos do not count). */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean;

/**
 * A game loaded from KIF text: the state machine. States are handles into
 * a table inside the game; free them with `dropState`/`clearStates` and the
 * game with `free()` (or `using game = new Game(kif)`): WebAssembly memory
 * is not reclaimed promptly by the garbage collector.
 */
export class Game {
  /** @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for an unknown option. */
  constructor(kif: string, options?: GameOptions);
  /** Which engine runs and why. */
  readonly engine: EngineInfo;
  /** Seeded random playouts (the same games as `gdlkit play --seed`). */
  playouts(options?: GamePlayoutsOptions): PlayoutSummary;
  /** One search from a state of this game (options and result as `search`). */
  search(state: StateHandle, options?: SearchOptions): SearchResult;
  /** Every legal move's value in a state (the result of `explain`), on this game's engine. */
  explain(state: StateHandle, options?: StateExplainOptions): Explanation;
  /** The game's text. */
  readonly text: string;
  /** The index of a role given by index or name; throws a RangeError for an unknown role. */
  roleIndex(role: RoleRef): number;
  /** The roles, in the order of the game's `role` facts. */
  roles(): string[];
  /** A new handle to the initial state. */
  initialState(): StateHandle;
  /** The legal moves of a role, sorted (canonical term text such as `(mark 1 2)`). */
  legalMoves(state: StateHandle, role: RoleRef): string[];
  /** Every legal joint move: one move per role, in role order. Throws a RangeError beyond 100000. */
  legalJointMoves(state: StateHandle): string[][];
  /**
   * A new handle to the state after a joint move: one move per role (role
   * order), or an object keyed by role name.
   * @throws {GdlMoveError} for an illegal move, or in a terminal state.
   */
  next(state: StateHandle, moves: readonly string[] | Readonly<Record<string, string>>): StateHandle;
  /**
   * GDL-II: what each role perceives when the joint move `moves` is made in
   * `state`: per role (role order) its percepts, sorted (empty lists in games
   * without `sees`).
   * @throws {GdlMoveError} for an illegal move, or in a terminal state.
   */
  percepts(state: StateHandle, moves: readonly string[] | Readonly<Record<string, string>>): string[][];
  /**
   * GDL-II: what `role` knows of the state after `steps` from the initial
   * state (its move and percepts per step): the fluents true in every
   * consistent state and those that may hold, with their chances.
   * @throws {GdlMoveError} for a move or percept that is no term, or a
   * history no state is consistent with.
   */
  belief(role: RoleRef, steps: readonly SeenStep[]): BeliefView;
  /** GDL-II: the index of the chance role `random`, or null. */
  chanceRole(): number | null;
  /** Whether the game is GDL-II (`sees` or a `random` role). */
  readonly isGdl2: boolean;
  /**
   * GDL-II: the chance role's move in `state`, drawn uniformly from a
   * generator seeded with `seed` (default 1; the same move on every engine).
   * @throws {RangeError} when the game has no `random` role.
   */
  drawChance(state: StateHandle, seed?: number): string;
  isTerminal(state: StateHandle): boolean;
  /** One goal value per role (role order): the largest derivable, or null. */
  goals(state: StateHandle): (number | null)[];
  /** Every derivable goal value per role (role order), sorted. */
  goalValues(state: StateHandle): number[][];
  /** The true fluents of a state, sorted. */
  fluents(state: StateHandle): string[];
  /** Fluents, terminal, legal moves and goal values of a state in one call. */
  describe(state: StateHandle): StateDescription;
  /** A new handle to the state made of exactly these fluents. */
  stateFromFluents(fluents: readonly string[]): StateHandle;
  /** Whether two handles denote the same state. */
  sameState(a: StateHandle, b: StateHandle): boolean;
  /** Releases a state handle (unknown handles are ignored). */
  dropState(state: StateHandle): void;
  /** Releases every state handle of this game. */
  clearStates(): void;
  /** How many state handles are live. */
  stateCount(): number;
  /** Whether `free()` was called (every method then throws a TypeError). */
  readonly freed: boolean;
  /** Releases the game and its states. Idempotent. */
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Replays joint moves from the initial state (the conformance format).
 * @throws {GdlMoveError} with `step` for an illegal move.
 */
export function replay(kif: string, moves: string | readonly (readonly string[])[] | { jointMoves: readonly (readonly string[])[] }): ReplayResult;

/** Options of runCli. */
export interface RunCliOptions {
  /** Behave as if stdout were a terminal (colour). */
  isTerminal?: boolean;
}

/**
 * Runs the gdlkit command line (`args` without the program name, e.g.
 * `['check', 'game.kif']`) over `files`. Same output and exit codes as the
 * native `gdlkit`; files it writes come back in `written`.
 */
export function runCli(args: readonly string[], files?: CliFiles, options?: RunCliOptions): CliResult;

// ---------------------------------------------------------------- analysis
// The semantic validator as a resumable job (docs/analysis.md).

/** A finished analysis: the report, the refuted properties as diagnostics (GDL201–GDL208), the evaluation error that ended it early (or null). */
export interface AnalysisResult {
  report: AnalysisReport;
  diagnostics: Diagnostic[];
  error: string | null;
}

/**
 * The semantic validator over a game, run in slices. Free it with `free()`
 * (or `using`).
 */
export class AnalysisJob {
  /**
   * Loads the game (nothing is explored yet).
   * @throws {GdlDiagnosticsError} for a game with errors; {TypeError} for bad options.
   */
  constructor(kif: string, options?: AnalysisOptions);
  /** Does about `work` units (default 5000; a state expansion costs 1 plus its joint moves, a playout step 1). */
  step(work?: number): AnalysisProgress;
  /** The progress, without doing anything. */
  progress(): AnalysisProgress;
  /** Ends the job now, keeping what it found. */
  stop(): AnalysisProgress;
  /** The report, or null until done. */
  report(): AnalysisReport | null;
  /** The refuted properties as diagnostics placed in the text, or null until done. */
  diagnostics(): Diagnostic[] | null;
  /** The evaluation error that ended the job early, or null. */
  error(): string | null;
  /** The state machine running the analysis: "fast", "hybrid" or "interpreter". */
  engine(): 'fast' | 'hybrid' | 'interpreter';
  /** `{report, diagnostics, error}` once done, else null. */
  result(): AnalysisResult | null;
  readonly freed: boolean;
  /** Releases the job (idempotent). */
  free(): void;
  [Symbol.dispose](): void;
}

/** Runs the semantic validator to the end on the calling thread (prefer GdlWorker.analyze in a page). */
export function analyze(kif: string, options?: AnalysisOptions): AnalysisResult;

// ------------------------------------------------------------------- solve
// Every reachable state's value under perfect play (docs/solve.md).

/**
 * The solver over a game, run in slices. Free it with `free()` (or `using`).
 */
export class SolveJob {
  /**
   * Loads the game (nothing is explored yet).
   * @throws {GdlDiagnosticsError} for a game with errors; an Error named
   * GdlSolveError for a game with more than two roles; {TypeError} for bad options.
   */
  constructor(kif: string, options?: SolveOptions);
  /** A finished job from a solution file's text (`gdlkit solve --out`, `solutionFile()`) of the game `kif`. @throws {TypeError} when the file does not read or is of other roles or another engine. */
  static fromSolution(kif: string, file: string): SolveJob;
  /** Expands up to `states` states (default 20000); at the end solves. @throws an Error named GdlSolveError for simultaneous moves. */
  step(states?: number): SolveProgress;
  /** The progress, without doing anything. */
  progress(): SolveProgress;
  /** Ends the exploration now and solves what was explored (a partial solution). */
  stop(): SolveProgress;
  /** The summary (the JSON of `gdlkit solve --format json`), or null until done. */
  summary(): SolveSummary | null;
  /** The solution file's text (`gdlkit solve --out`), or null until done. */
  solutionFile(): string | null;
  /** The position made of `fluents`: its solved value, the role to move and each legal move's value and outcome for it; null until done. @throws {TypeError} for a fluent that does not parse. */
  position(fluents: string[]): SolvedPosition | null;
  /** The solved value of each state (a list of fluent texts; null where unknown); null until done. */
  values(states: string[][]): Array<SolvedValue | null> | null;
  readonly freed: boolean;
  /** Releases the job (idempotent). */
  free(): void;
  [Symbol.dispose](): void;
}

/** Solves a game on the calling thread (prefer GdlWorker.solve in a page). */
export function solve(kif: string, options?: SolveOptions): SolveSummary;

/**
 * Solves a game symbolically with BDDs (`gdlkit solve --symbolic`): the
 * reachable states by layer, the initial state's value and the states by
 * value, without enumerating them. Blocks the calling thread (in a page,
 * call it in a worker). @throws an Error named GdlSolveError for a game it
 * cannot solve so (more than two roles, GDL-II, rules that do not ground).
 */
export function solveSymbolic(kif: string, options?: SymbolicOptions, onProgress?: (progress: JobProgress) => void): SymbolicSummary;

// ------------------------------------------------------------------ search
// Players, search, the lecture trace and matches (docs/search.md). The
// result objects are the JSON of `gdlkit search|match --format json`.

/**
 * A player: a spec string as the CLI takes it (`"alphabeta:heuristic=fuzzy,ms=200"`,
 * `"mcts:ms=200"`, `"random"`), or an object `{name, ...options}` written as such
 * a string (`{name: 'alphabeta', ms: 200}`; each player's options are typed,
 * generated from their declaration: `MctsOptions` etc.).
 */
export type PlayerSpec = string | PlayerSpecObject;

/** A player spec object as the spec string the CLI takes (strings are returned as they are). */
export function playerSpec(spec: PlayerSpec): string;

/** Options of `runMatch`: `MatchOptions` and a callback. */
export type RunMatchOptions = MatchOptions & {
  /** Called after each game (an exception it throws is rethrown when the match is over). */
  onGame?: (record: MatchGameRecord) => void;
};

/**
 * Searches a game from its initial state.
 * @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for a bad or unknown option; GdlSearchError when the search fails.
 */
export function search(kif: string, options?: SearchOptions): SearchResult;

/** Searches an abstract tree such as `((3 12 8) (2 4 6) (14 5 2))` (MAX at the root). */
export function searchTree(tree: string, options?: SearchOptions): SearchResult & { tree: AbstractTree };

/** Plays a match between `players` (one per role, roles rotated from game to game). */
export function runMatch(kif: string, players: readonly PlayerSpec[], options?: RunMatchOptions): MatchResult;

/**
 * A player with its own copy of the game: `selectMove(fluents, role)` is
 * its move in a state. Free it with `free()` (or `using`).
 */
export class Player {
  /**
   * @param spec the player and its budget, e.g. `"alphabeta:ms=200"` or `{name: 'mcts', ms: 200}` (default `defaultPlayer()`, `"mcts-solver"`, the player of `gdlkit serve`: 1000 ms per move).
   * @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for an unknown player or option.
   */
  constructor(kif: string | Game, spec?: PlayerSpec, options?: { seed?: number; engine?: EngineChoice; solution?: 'auto' | false | string | Omit<SolveOptions, 'engine'> });
  /** The player's name with its options. */
  readonly name: string;
  /** The summary of the solve made at the start (or of the solution file loaded); null when none (a `random` or `legal` player, `solution: false`, a game the solver refuses). */
  readonly solution: SolveSummary | null;
  /** Whether the last `selectMove` played the solution's move (no search ran). */
  readonly lastMoveSolved: boolean;
  /** The state machine it runs on: "fast" or "interpreter". */
  readonly engine: string;
  /** The move of `role` (index or name) in a state: a handle of the Game the player was made from, or the fluents (e.g. `game.fluents(state)`). */
  selectMove(state: StateHandle | readonly string[], role?: RoleRef): string;
  /** GDL-II: one step as `role` saw it, its move and percepts (`hyperplay` keeps its belief with them; `newGame()` forgets them). */
  observe(role: RoleRef, move: string, percepts?: readonly string[]): void;
  /** Counters of the last `selectMove`. */
  lastStats(): SearchStats;
  /** Starts a new game. */
  newGame(): void;
  readonly freed: boolean;
  /** Releases the player (idempotent). */
  free(): void;
  [Symbol.dispose](): void;
}

// ----------------------------------------------------------------- explain
// `explain(kif, options)`: the JSON of `gdlkit explain --format json`
// (docs/planning.md).

/**
 * Every legal move's value in a position (after `options.moves`) for a role
 * under a heuristic; for fjo/hff/hadd/hmax with the relaxed-plan distances
 * and plans to each goal value.
 * @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for a bad or unknown option; GdlExplainError for an illegal move, an unknown role or heuristic.
 */
export function explain(kif: string, options?: ExplainOptions): Explanation;
// --------------------------------------------------------------- structure
// The structure of a game (lecture 004): boards, pieces and markers,
// counters, quantities, turn-taking, teams (docs/structure.md).

/** The structure of a game. @throws {GdlDiagnosticsError} when the text has errors. */
export function structure(kif: string, options?: StructureOptions): Structure;

/**
 * What instantiation (grounding) does to a game, as `gdlkit ground --format json`: ground atoms per relation, the rules that grew most, the network's size and depth; for a game that does not ground, where and why it stopped; a small game's ground rules.
 * @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for an unknown option; {RangeError} for a bad `ms`.
 */
export function groundReport(kif: string, options?: GroundReportOptions): GroundReport;

/** The SVG of a state's board (`""` when the game has none), drawn in Rust from the structure. */
export function renderBoard(game: string | Structure, state: readonly string[] | { fluents: readonly string[] }, options?: RenderBoardOptions): string;
// Root-parallel MCTS over workers (js/parallel.js, js/mcts-worker.js).

// The result types (RootStats, MctsRootResult, MctsChoice, AlphaBetaResult,
// AlphaBetaRootResult, AlphaBetaChoice) are generated (js/types.d.ts).

/** One worker of a root-parallel MCTS (worker `worker` gets a seed derived from `seed`, as natively). */
export class MctsWorker {
  /** @throws {TypeError} for an unknown option. */
  constructor(kif: string, spec?: string, options?: MctsWorkerOptions);
  rootStats(fluents: readonly string[], role?: number): MctsRootResult;
  free(): void;
}

/** Merges root statistics and picks the move (Rust, like `mcts:threads=N` natively). */
export function mctsChoose(parts: readonly RootStats[]): MctsChoice;

/** Helper number `worker` of parallel alpha-beta, with its own transposition table (kept across searches). */
export class AlphaBetaWorker {
  /** @throws {TypeError} for an unknown option. */
  constructor(kif: string, spec?: string, options?: AlphaBetaWorkerOptions);
  rootResult(fluents: readonly string[], role?: number): AlphaBetaRootResult;
  free(): void;
}

/** Parallel alpha-beta's rule: a proven result, else the deepest, then the higher value, then the lower worker number. */
export function alphabetaChoose(parts: readonly AlphaBetaResult[]): AlphaBetaChoice;

/** The cores `cores: auto` uses. */
export function autoCores(): number;

/** One move of parallel alpha-beta over GdlWorkers (spec `alphabeta...`). */
export function parallelBestMove(
  workers: readonly { run(kind: string, params?: object): Promise<any> }[],
  params: { kif: string; spec: `alphabeta${string}` | `alpha-beta${string}`; engine?: EngineChoice; fluents: readonly string[]; role?: number },
): Promise<AlphaBetaChoice & { stats: SearchStats[] }>;
/** One move of root-parallel MCTS over GdlWorkers (one per core). */
export function parallelBestMove(
  workers: readonly { run(kind: string, params?: object): Promise<any> }[],
  params: { kif: string; spec?: string; seed?: number; engine?: EngineChoice; fluents: readonly string[]; role?: number },
): Promise<MctsChoice & { stats: SearchStats[] }>;

// Limits (js/limits.js): the memory budget of the wasm instance.

/** Sets the memory budget in MB (at least 16, at most 1,920): evaluation then stops with a GdlEvalError naming it. */
export function setMemoryBudget(mb: number): void;
/** The memory budget and the memory the engine holds now, in MB. */
export function memoryBudget(): MemoryBudget;
/** One member of the ensemble player: one alpha-beta search with one evaluation function. */
export class EnsembleMember {
  /** @throws {TypeError} for an unknown option. */
  constructor(kif: string, spec?: string, options?: EnsembleMemberOptions);
  /** The member's evaluation function (`none`: the exhaustive search). */
  readonly heuristic: string;
  search(fluents: readonly string[], role?: number): EnsembleMemberResult;
  free(): void;
}

/** The member heuristics of an `ensemble` spec on a game, in member order. */
export function ensembleMembers(kif: string, spec?: string, options?: { engine?: EngineChoice }): string[];

/** The lecture's choice among member results (Rust, the same rule as natively). */
export function ensembleChoose(parts: readonly EnsembleMemberMove[]): EnsembleChoice;

/** One move of the ensemble player with its members at once, one per worker. */
export function parallelEnsembleMove(
  workers: readonly { run(kind: string, params?: object): Promise<any> }[],
  params: { kif: string; spec?: string; engine?: EngineChoice; fluents: readonly string[]; role?: number },
): Promise<EnsembleChoice & { parts: EnsembleMemberResult[] }>;
