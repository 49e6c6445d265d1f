// TypeScript declarations of the gdlkit JavaScript API (`gdlkit`), for both
// the browser entry (index.js) and the Node entry (node.js), written by hand
// (the data types match pkg/gdlkit.d.ts, which wasm-bindgen writes; a test
// checks they agree). Documentation: docs/js-api.md.

// Explicit resource management (`using`): declared here so that projects
// whose `lib` lacks `esnext.disposable` still compile (merges with it).
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A position span of a related note of a diagnostic. */
export interface RelatedSpan {
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  /** UTF-16 offset of the start (what editors such as CodeMirror count). */
  from: number;
  /** UTF-16 offset of the end. */
  to: number;
}

/** A diagnostic with resolved positions: lines and columns 1-based, `from`/`to` UTF-16 offsets. */
export interface Diagnostic {
  /** A stable code such as `GDL002` (docs/diagnostics.md). */
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  from: number;
  to: number;
  /** How to fix it ('' when there is no hint). */
  hint: string;
  related: RelatedSpan[];
  /** Quick fixes made by the engine where the diagnostic is made (docs/diagnostics.md). */
  fixes: QuickFix[];
}

/** A quick fix: apply all its edits (UTF-16 offsets into the checked text) at once. */
export interface QuickFix {
  title: string;
  edits: { from: number; to: number; insert: string }[];
  /** False for a guess ("did you mean"): `fix()` applies it only with `unsafe: true`. */
  safe: boolean;
}

/** What `fix(text)` did. */
export interface FixResult {
  /** The fixed text. */
  text: string;
  /** The fixes applied (positions in the text of their pass). */
  applied: { code: string; title: string; line: number; column: number }[];
}

/** Who won a terminal state. */
export interface Outcome {
  /** The highest goal value. */
  score: number;
  /** The role indices with the highest value. */
  winners: number[];
  /** More than one role and all tie. */
  draw: boolean;
  /** Per role: a win (strictly above every other role; alone: 100), a draw (tied for the top) or a loss. */
  results: ('win' | 'draw' | 'loss')[];
}

/** Which engine runs a Game, and why. */
export interface EngineInfo {
  name: 'fast' | 'interpreter';
  requested: 'auto' | 'fast' | 'interpreter';
  /** Why this engine runs (for `auto` falling back: why the game does not ground). */
  reason: string;
}

/** Options of `new Game`. */
export interface GameOptions {
  /** "auto" (default: the fast engine when the game grounds), "fast" or "interpreter". */
  engine?: 'auto' | 'fast' | 'interpreter';
}

/** Options of `game.playouts`. */
export interface GamePlayoutsOptions {
  /** Playouts (default 100). */
  count?: number;
  /** Playout i is the game `gdlkit play --seed seed+i` plays (default 1). */
  seed?: number;
  /** Joint moves per playout at most (default 1000). */
  maxSteps?: number;
  /** Keep the games (`games`). */
  record?: boolean;
  /** A state handle to start from (default the initial state). */
  from?: StateHandle;
}

/** One recorded random game. */
export interface PlayedGame {
  jointMoves: string[][];
  terminal: boolean;
  /** A role had no legal move. */
  stuck: boolean;
  goals: number[][];
}

/** What random playouts found. */
export interface PlayoutSummary {
  roles: string[];
  playouts: number;
  terminal: number;
  meanSteps: number;
  /** Per role, the mean goal value over the terminal states reached (null if none). */
  meanGoals: (number | null)[];
  games?: PlayedGame[];
}

/** Random playouts played a few at a time (the worker's `playouts` job). */
export class PlayoutJob {
  constructor(kif: string, options?: Omit<GamePlayoutsOptions, 'from'>, engine?: { engine?: 'auto' | 'fast' | 'interpreter' });
  /** Plays up to n more playouts; true when all are played. */
  step(n?: number): boolean;
  readonly done: number;
  result(): PlayoutSummary;
  free(): void;
}

/** What `gdlkit check --fix` does, on text. */
export function fix(text: string, options?: { unsafe?: boolean }): FixResult;

/** A child's original number, and its own children's labels (null for a leaf). */
export interface TreeLabel {
  label: number;
  sub: TreeLabel[] | null;
}

/** A move ordering: the game's, reversed, best first, worst first. */
export type Ordering = 'given' | 'reversed' | 'best' | 'worst';

/** An abstract tree in another order. */
export function reorderTree(tree: string, ordering: Ordering): { tree: AbstractTree; text: string; labels: TreeLabel[] };

/** Parses an abstract tree (a TypeError says what is wrong). */
export function parseTree(tree: string): AbstractTree;

/** A player spec parsed by the engine: the canonical name and the options. */
export function parsePlayerSpec(spec: PlayerSpec): { name: string; options: Record<string, string> };

/** The players and search algorithms of the engine's one registry. */
export function players(): { name: string; description: string }[];

/** A description of one state; lists sorted by code point, `legal` and `goals` per role in role order. */
export interface StateDescription {
  fluents: string[];
  terminal: boolean;
  legal: string[][];
  goals: number[][];
  /** Terminal states with goal values: who won; otherwise null. */
  outcome: Outcome | null;
}

/** One step of a replay (conformance format): `legal` and `goals` keyed by role. */
export interface ReplayStep {
  state: string[];
  terminal: boolean;
  legal: Record<string, string[]>;
  goals: Record<string, number[]>;
}

/** A replay: `steps[0]` is the initial state, `steps[i + 1]` the state after joint move i. */
export interface ReplayResult {
  roles: string[];
  steps: ReplayStep[];
}

/** The result of one CLI run; `written` holds the files the command wrote (path to contents). */
export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
  written: Record<string, string>;
}

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

/** A state of a game: a handle into the game's table of states. */
export type StateHandle = number;

/** A role, by index (in `role` fact order) or by name. */
export type RoleRef = number | string;

/** Names of the errors gdlkit throws (the `name` of the Error). */
export type GdlErrorName = 'GdlDiagnosticsError' | 'GdlMoveError' | 'GdlEvalError' | 'GdlSearchError';

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

/** Narrows an unknown error to a gdlkit error with this name. */
export function isGdlError(error: unknown, name: 'GdlDiagnosticsError'): error is GdlDiagnosticsError;
export function isGdlError(error: unknown, name: 'GdlMoveError'): error is GdlMoveError;
export function isGdlError(error: unknown, name: 'GdlEvalError'): error is GdlEvalError;
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
export function replay(kif: string, moves: string | readonly (readonly string[])[] | { joint_moves: readonly (readonly string[])[] }): ReplayResult;

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

/** Options of an analysis; every field is optional. */
export interface AnalysisOptions {
  /** Exhaustive only up to this many reachable states (default 2000000). */
  budget?: number;
  /** Random playouts when the state space exceeds the budget (default 200). */
  playouts?: number;
  /** Joint moves per playout at most (default 1000). */
  depth?: number;
  /** Seed of the playouts (default 1). */
  seed?: number;
  /**
   * The state machine: "auto" (default: the grounded fast engine, or the
   * interpreter when the game does not ground in budget), "fast" or
   * "interpreter".
   */
  engine?: 'auto' | 'fast' | 'interpreter';
}

/** Where an analysis job is. */
export interface AnalysisProgress {
  phase: 'exploring' | 'checking' | 'sampling' | 'done';
  mode: 'exhaustive' | 'sampled';
  states: number;
  expanded: number;
  terminal_states: number;
  max_states: number;
  playouts: number;
  max_playouts: number;
  work: number;
  done: boolean;
}

/** One property: proved (true), refuted (false, with the joint moves from the initial state that reach the violation) or not established (null). */
export interface AnalysisProperty {
  holds: boolean | null;
  counterexample: string[][] | null;
  detail: string;
}

/** The report of `gdlkit analyze --format json`. */
export interface AnalysisReport {
  mode: 'exhaustive' | 'sampled';
  states: number;
  terminal_states: number;
  max_depth: number;
  properties: {
    terminates: AnalysisProperty;
    playable: AnalysisProperty;
    goals_defined: AnalysisProperty;
    monotone: AnalysisProperty;
    weakly_winnable: AnalysisProperty;
    strongly_winnable: AnalysisProperty;
  };
}

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
  /** The state machine running the analysis: "fast" or "interpreter". */
  engine(): 'fast' | 'interpreter';
  /** `{report, diagnostics, error}` once done, else null. */
  result(): AnalysisResult | null;
  readonly freed: boolean;
  /** Releases the job (idempotent). */
  free(): void;
  [Symbol.dispose](): void;
}

/** Runs the semantic validator to the end on the calling thread (prefer GdlWorker.analyze in a page). */
export function analyze(kif: string, options?: AnalysisOptions): AnalysisResult;

// ------------------------------------------------------------------ search
// Players, search, the lecture trace and matches (docs/search.md). The
// result objects are the JSON of `gdlkit search|match --format json`.

/** Which state machine runs: "auto" (the grounded fast engine when the game grounds within budget, else the interpreter), "fast" or "interpreter". */
export type EngineChoice = 'auto' | 'fast' | 'interpreter';

/** A search value: a number on the 0..100 goal scale (trees: the leaf values), or an unbounded alpha/beta. */
export type SearchValue = number | 'inf' | '-inf';

/**
 * Options of `search` and `searchTree` (all optional). They are passed to
 * the wasm binding as they are: an unknown option is a type error here and
 * a TypeError there.
 */
export interface SearchOptions {
  /** `alphabeta` (default), `minimax`, `best-first` or `mcts`. */
  algorithm?: 'alphabeta' | 'minimax' | 'best-first' | 'mcts' | (string & {});
  /** Depth limit (plies). */
  depth?: number;
  /** Time budget in milliseconds (games: 1000 when no budget is given). */
  budgetMs?: number;
  /** Node budget. */
  nodes?: number;
  /** The searching role's name (default: the first role). */
  role?: string;
  /** `fuzzy` (default), `mobility`, `inverse-mobility`, `novelty`, `none`. */
  heuristic?: string;
  /** Record the lecture trace (`events`, `states`); minimax and alphabeta only. */
  trace?: boolean;
  /** Events recorded at most (nodes entered; default 5000). */
  nodeCap?: number;
  /** MCTS seed. */
  seed?: number;
  /** The state machine (default "auto"). */
  engine?: EngineChoice;
  /** The order each node's moves are searched in (minimax, alphabeta; default "given"); trees come back reordered with `labels`. */
  ordering?: Ordering;
  /** Games: search from the state made of these fluents instead of the initial state. */
  from?: readonly string[];
}

/** Counters of a search. `nodes` are states entered (MCTS: tree nodes). */
export interface SearchStats {
  nodes: number;
  leaves: number;
  cutoffs: number;
  tt_hits: number;
  playouts: number;
  depth: number;
  elapsed_ms: number;
  nodes_per_second?: number;
}

/** A node kind in a trace: `max` (we choose), `min` (others choose), `forced` (nobody has a choice), `leaf`. */
export type TraceNodeKind = 'max' | 'min' | 'forced' | 'leaf';

/** One event of a search trace (docs/search.md, "The trace format"). */
export type TraceEvent =
  | { type: 'iteration'; depth: number }
  | {
      type: 'enter';
      node: number;
      parent: number | null;
      ply: number;
      kind: TraceNodeKind;
      move: string | null;
      /** Index into `states`. */
      state: number;
      reply?: true;
      alpha: SearchValue | null;
      beta: SearchValue | null;
    }
  | { type: 'leaf'; node: number; value: SearchValue; terminal: boolean }
  | { type: 'bound'; node: number; bound: 'alpha' | 'beta'; value: SearchValue }
  | { type: 'cutoff'; node: number; alpha: SearchValue; beta: SearchValue; value: SearchValue; pruned: { move: string }[] }
  | { type: 'tt_hit'; node: number; value: SearchValue }
  | { type: 'return'; node: number; value: SearchValue }
  | { type: 'best_move'; node: number; move: string; value: SearchValue }
  | { type: 'truncated'; nodes: number };

/** A nested abstract tree: numbers are leaves. */
export type AbstractTree = number | AbstractTree[];

/** The result of a search (`gdlkit search --format json`). */
export interface SearchResult {
  /** `"game"` (a game text) or `"tree"`. */
  game: string;
  /** Trees only: the tree (reordered when `ordering` is given). */
  tree?: AbstractTree;
  /** Reordered trees: each node's children's original numbers. */
  labels?: TreeLabel[];
  /** The move ordering, when not the game's own. */
  ordering?: Ordering;
  /** Minimax and alpha-beta: the counts of each pass (`stats` are their totals). */
  iterations?: { depth: number; complete: boolean; nodes: number; leaves: number; cutoffs: number; tt_hits: number }[];
  /** The engine that ran: "fast" or "interpreter". */
  engine?: string;
  /** Why the interpreter ran although "auto" asked for the fast engine. */
  engine_fallback?: string;
  algorithm: string;
  role: string;
  heuristic: string;
  /** The value for the role (trees: the MAX value). */
  value: SearchValue;
  /** The chosen move (trees: the child number, `"1"` the first), or null when there is none. */
  best_move: string | null;
  /** The value is exact (no heuristic estimate was used). */
  solved: boolean;
  /** Deepest completed iteration / plan length. */
  depth: number;
  stats: SearchStats;
  /** best-first: our moves to the chosen node. */
  plan?: string[];
  complete?: boolean;
  exhausted?: boolean;
  /** With `trace: true`: the events in order, the states they index (sorted fluents), whether the node cap cut the record. */
  events?: TraceEvent[];
  states?: string[][];
  truncated?: boolean;
  node_cap?: number;
}

/**
 * A player: a spec string as the CLI takes it (`"alphabeta:heuristic=fuzzy,ms=200"`,
 * `"mcts:ms=200"`, `"random"`), or an object `{name, ...options}` written as such
 * a string (`{name: 'alphabeta', ms: 200}`).
 */
export type PlayerSpec = string | { name: 'random' | 'legal' | 'minimax' | 'alphabeta' | 'bestfirst' | 'mcts' | (string & {}); [option: string]: string | number | boolean | undefined };

/** A player spec object as the spec string the CLI takes (strings are returned as they are). */
export function playerSpec(spec: PlayerSpec): string;

/** Options of a match (all optional). */
export interface MatchOptions {
  /** Games to play (default 10). */
  games?: number;
  /** Seed of the players (default 1). */
  seed?: number;
  /** Joint moves per game at most (default 1000). */
  maxSteps?: number;
  /** The state machine (default "auto"). */
  engine?: EngineChoice;
  /** Called after each game (an exception it throws is rethrown when the match is over). */
  onGame?: (record: MatchGameRecord) => void;
}

/** A player's results over a match. */
export interface MatchPlayerSummary {
  name: string;
  spec: string;
  games: number;
  mean_goal: number;
  /** 95% confidence interval of the mean goal, clipped to 0..100. */
  ci95: [number, number];
  wins: number;
  draws: number;
  losses: number;
  moves: number;
  ms_per_move: number;
  nodes_per_second: number;
  playouts_per_second: number;
  /** Mean over its moves of the deepest completed iteration (MCTS: tree depth). */
  mean_depth: number;
}

/** One game of a match. */
export interface MatchGameRecord {
  game: number;
  /** The player index for each role. */
  seats: number[];
  /** Each role's goal value (0 when none is derivable). */
  goals: number[];
  steps: number;
  terminal: boolean;
}

/** The result of a match (`gdlkit match --format json`). */
export interface MatchResult {
  game: string;
  engine?: string;
  engine_fallback?: string;
  games: number;
  seed: number;
  roles: string[];
  /** In the order the players were given. */
  players: MatchPlayerSummary[];
  results: MatchGameRecord[];
}

/**
 * Searches a game from its initial state.
 * @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for a bad or unknown option; GdlSearchError when the search fails.
 */
export function search(kif: string, options?: SearchOptions): SearchResult;

/** Searches an abstract tree such as `((3 12 8) (2 4 6) (14 5 2))` (MAX at the root). */
export function searchTree(tree: string, options?: SearchOptions): SearchResult & { tree: AbstractTree };

/** Plays a match between `players` (one per role, roles rotated from game to game). */
export function runMatch(kif: string, players: readonly PlayerSpec[], options?: MatchOptions): MatchResult;

/**
 * A player with its own copy of the game: `selectMove(fluents, role)` is
 * its move in a state. Free it with `free()` (or `using`).
 */
export class Player {
  /**
   * @param spec the player and its budget, e.g. `"alphabeta:ms=200"` or `{name: 'mcts', ms: 200}` (default `"alphabeta"`: 1000 ms per move).
   * @throws {GdlDiagnosticsError} when the text has errors; {TypeError} for an unknown player or option.
   */
  constructor(kif: string, spec?: PlayerSpec, options?: { seed?: number; engine?: EngineChoice });
  /** The player's name with its options. */
  readonly name: string;
  /** The state machine it runs on: "fast" or "interpreter". */
  readonly engine: string;
  /** The move of `role` (index or name) in the state made of `fluents` (e.g. `game.fluents(state)`). */
  selectMove(fluents: readonly string[], role?: RoleRef): string;
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

/** Options of `explain` (all optional). */
export interface ExplainOptions {
  /** Joint moves from the initial state, one move per role in role order. */
  moves?: string[][];
  /** The role whose moves are explained (default: the one with a choice). */
  role?: string;
  /** `fjo` (default), `hff`, `hadd`, `hmax`, or any other heuristic name. */
  heuristic?: string;
  engine?: "auto" | "interpreter" | "fast";
  /** Time limit in milliseconds (default 60,000). */
  ms?: number;
}

/** Distances of one goal formula T_q = goal(role, q) ∧ terminal (null: unreachable). */
export interface GoalDistance {
  goal: number;
  /** goal − 50, its weight in f_JO. */
  q: number;
  h_max: number | null;
  h_add: number | null;
  h_ff: number | null;
  /** The relaxed plan's actions by layer (other roles' written `role: move`). */
  plan: string[];
}

/** One legal move and the value of the state after it. */
export interface ExplainedMove {
  move: string;
  /** Raw f_JO (fjo), distance to the best goal (hff/hadd/hmax), else [1, 99]; terminal: the goal value (fjo: − 50). With simultaneous replies: the minimum. */
  value: number | null;
  terminal: boolean;
  goals: GoalDistance[];
  /** With several joint replies of the other roles: each one's value. */
  replies?: { moves: string[]; value: number | null }[];
}

/** The result of `explain` (`gdlkit explain --format json`). */
export interface Explanation {
  role: string;
  heuristic: string;
  terminal: boolean;
  value: number | null;
  goals?: GoalDistance[];
  moves: ExplainedMove[];
}

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

/** A board found in the rules: coordinates and contents are argument positions (0-based). */
export interface StructureBoard {
  fluent: string;
  arity: number;
  coordinates: number[];
  contents: number[];
  /** Number of values of each coordinate. */
  size: number[];
  ordered: boolean[];
  /** The successor relation ordering each coordinate (null: unordered). */
  order: (string | null)[];
  /** Each coordinate's values, in order. */
  values: string[][];
  pieces: string[];
  markers: string[];
}

/** The result of `structure()` (`gdlkit structure --format json`). */
export interface Structure {
  roles: string[];
  turn_taking: boolean;
  noop_moves: string[];
  teams: string[][];
  /** The sum of the goals in every sampled terminal state, or null. */
  constant_sum: number | null;
  goal_values: Record<string, number[]>;
  successors: { relation: string; chain: string[] }[];
  orders: { relation: string; successor: string; ascending: boolean; reflexive: boolean }[];
  boards: StructureBoard[];
  counters: { fluent: string; argument: number; successor: string; limit: string | null }[];
  quantities: { fluent: string; argument: number; inputs: number[]; successor: string; values: string[] }[];
  domains: { fluent: string; arity: number; sizes: (number | null)[] }[];
  /** Feature names: heuristics `feature:NAME:max` / `feature:NAME:min`. */
  features: string[];
  states_sampled: number;
  terminal_states_sampled: number;
}

export interface StructureOptions {
  /** Simulation seed (default 1). */
  seed?: number;
  /** States to sample (default 1000). */
  states?: number;
  /** Time limit of the simulation in ms (default 5000). */
  ms?: number;
}

/** The structure of a game. @throws {GdlDiagnosticsError} when the text has errors. */
export function structure(kif: string, options?: StructureOptions): Structure;

export interface RenderBoardOptions {
  /** Pixels per square (default 40). */
  cell?: number;
  /** Coordinates along the edges (default true). */
  labels?: boolean;
}

/** The SVG of a state's board (`""` when the game has none), drawn in Rust from the structure. */
export function renderBoard(game: string | Structure, state: readonly string[] | { fluents: readonly string[] }, options?: RenderBoardOptions): string;
// Root-parallel MCTS over workers (issue 17; js/parallel.js, js/mcts-worker.js).

/** Statistics of one role's moves at the root of an MCTS search. */
export interface RootStats {
  moves: string[];
  visits: number[];
  /** Summed rewards in [0, 1] per move. */
  totals: number[];
  playouts: number;
}

/** One worker of a root-parallel MCTS (worker `worker` gets a seed derived from `seed`, as natively). */
export class MctsWorker {
  constructor(kif: string, spec?: string, options?: { seed?: number; worker?: number; engine?: EngineChoice });
  rootStats(fluents: readonly string[], role?: number): RootStats & { stats: SearchStats };
  free(): void;
}

/** Merges root statistics and picks the move (Rust, like `mcts:threads=N` natively). */
export function mctsChoose(parts: readonly RootStats[]): { move: string | null; value: number | null; merged: RootStats };

/** One worker's result in parallel alpha-beta (lazy SMP). */
export interface AlphaBetaResult {
  move: string | null;
  value: number;
  /** No estimate influenced the value (a proven result). */
  solved: boolean;
  /** The deepest completed iteration (0: the first was cut short). */
  depth: number;
}

/** Helper number `worker` of parallel alpha-beta, with its own transposition table (kept across searches). */
export class AlphaBetaWorker {
  constructor(kif: string, spec?: string, options?: { worker?: number; engine?: EngineChoice });
  rootResult(fluents: readonly string[], role?: number): AlphaBetaResult & { stats: SearchStats };
  free(): void;
}

/** Parallel alpha-beta's rule: a proven result, else the deepest, then the higher value, then the lower worker number. */
export function alphabetaChoose(parts: readonly AlphaBetaResult[]): AlphaBetaResult & { worker: number | null; value: number | null };

/** The cores `cores: auto` uses. */
export function autoCores(): number;

/** One move of parallel alpha-beta over GdlWorkers (spec `alphabeta...`). */
export function parallelBestMove(
  workers: readonly { run(kind: string, params?: object): Promise<any> }[],
  params: { kif: string; spec: `alphabeta${string}` | `alpha-beta${string}`; engine?: EngineChoice; fluents: readonly string[]; role?: number },
): Promise<AlphaBetaResult & { worker: number | null; value: number | null; stats: SearchStats[] }>;
/** One move of root-parallel MCTS over GdlWorkers (one per core). */
export function parallelBestMove(
  workers: readonly { run(kind: string, params?: object): Promise<any> }[],
  params: { kif: string; spec?: string; seed?: number; engine?: EngineChoice; fluents: readonly string[]; role?: number },
): Promise<{ move: string | null; value: number | null; merged: RootStats; stats: SearchStats[] }>;

// Limits (issue 13; js/limits.js): the memory budget of the wasm instance.

/** Sets the memory budget in MB (at least 16, at most 1,920): evaluation then stops with a GdlEvalError naming it. */
export function setMemoryBudget(mb: number): void;
/** The memory budget and the memory the engine holds now, in MB. */
export function memoryBudget(): { budgetMb: number; usedMb: number };
/** One member of the ensemble player (issue 14): one alpha-beta search with one evaluation function. */
export class EnsembleMember {
  constructor(kif: string, spec?: string, options?: { member?: number; engine?: EngineChoice });
  /** The member's evaluation function (`none`: the exhaustive search). */
  readonly heuristic: string;
  search(fluents: readonly string[], role?: number): EnsembleMemberResult;
  free(): void;
}

/** One ensemble member's result. */
export interface EnsembleMemberResult {
  heuristic: string;
  move: string | null;
  value: number;
  solved: boolean;
  depth: number;
  stats?: SearchStats;
}

/** The member heuristics of an `ensemble` spec on a game, in member order. */
export function ensembleMembers(kif: string, spec?: string, options?: { engine?: EngineChoice }): string[];

/** The lecture's choice among member results (Rust, the same rule as natively). */
export function ensembleChoose(parts: readonly EnsembleMemberResult[]): { move: string | null; index: number | null; heuristic: string | null };

/** One move of the ensemble player with its members at once, one per worker. */
export function parallelEnsembleMove(
  workers: readonly { run(kind: string, params?: object): Promise<any> }[],
  params: { kif: string; spec?: string; engine?: EngineChoice; fluents: readonly string[]; role?: number },
): Promise<{ move: string | null; index: number | null; heuristic: string | null; parts: EnsembleMemberResult[] }>;
