// TypeScript declarations of `gdlkit/worker` (worker.js in browsers,
// worker-node.js in Node). Protocol and semantics: docs/js-api.md.

import type { AnalysisOptions, AnalysisProgress, AnalysisResult, SolveOptions, SolveProgress, SolveSummary, CliResult, Diagnostic, EngineChoice, ExplainOptions, Explanation, MatchGameRecord, MatchResult, PlayerSpec, RunMatchOptions, ReplayResult, RoleRef, SearchOptions, SearchResult, SearchStats, WasmSource } from './index.js';
import type { RenderBoardOptions, Structure, StructureOptions } from './index.js';

/** Progress of the `playouts` job. */
export interface PlayoutsProgress {
  done: number;
  total: number;
}

/** A job running in the worker: a promise of its result that can be cancelled. */
export interface GdlTask<T> extends Promise<T> {
  /** The task id (used in the protocol messages). */
  readonly id: number;
  /** Cancels the task (see GdlWorker.cancel). */
  cancel(options?: { hard?: boolean }): void;
}

/** Per-task options; `P` is the job's progress type. */
export interface TaskOptions<P = unknown> {
  /** Called with each progress report of a sliced job. */
  onProgress?: (progress: P) => void;
  /** Cancels the task (softly) when aborted. */
  signal?: AbortSignal;
}

/**
 * The error a cancelled task rejects with (`name` is "AbortError"): `hard`
 * when the worker was terminated, `partial` the result so far of a sliced
 * job stopped softly.
 */
export interface GdlAbortError extends Error {
  name: 'AbortError';
  hard: boolean;
  partial?: unknown;
}

/** What the worker reports once it has loaded the wasm. */
export interface WorkerInfo {
  version: string;
  protocol: number;
  kinds: string[];
}

export interface GdlWorkerOptions {
  /** The .wasm (URL, bytes or module); default: next to the package's module. */
  wasm?: WasmSource;
  /** The worker script URL; default: the package's worker-script.js. */
  workerUrl?: string | URL;
  /** Creates the worker (a Web Worker, or a Node worker_threads Worker); overrides `workerUrl`. */
  createWorker?: () => Worker | NodeWorkerLike;
  /**
   * With `workerUrl`: loads `{ api, serve }` (the gdlkit module and
   * worker-core.js's `serve`) to run the jobs on the main thread, in slices,
   * when workers are blocked here (the default worker has this built in).
   */
  mainThread?: () => Promise<{ api: unknown; serve: unknown }>;
  /** Milliseconds of work per slice (default 16). */
  sliceMs?: number;
  /** How long a soft cancel may take before the worker is restarted (default 1000 ms). */
  cancelGraceMs?: number;
}

/** What GdlWorker needs of a Node worker_threads Worker. */
export interface NodeWorkerLike {
  postMessage(message: unknown): void;
  terminate(): unknown;
  on(event: 'message' | 'error' | 'exit', listener: (value: any) => void): unknown;
  ref?(): void;
  unref?(): void;
}

/** The result of random playouts. */
export interface PlayoutsResult {
  roles: string[];
  /** Playouts run. */
  playouts: number;
  /** How many of them reached a terminal state (the others hit maxSteps or a role without moves). */
  terminal: number;
  meanSteps: number;
  /** Per role, the mean goal value over the terminal states reached (null if none). */
  meanGoals: (number | null)[];
}

export interface PlayoutsOptions {
  count?: number;
  maxSteps?: number;
  /** Playout i is the game `gdlkit play --seed seed+i` plays. */
  seed?: number;
  engine?: 'auto' | 'fast' | 'interpreter';
}

/** Progress of a match in the worker: after each game. */
export interface MatchProgress {
  /** Games finished. */
  games: number;
  total: number;
  /** The game just finished. */
  record: MatchGameRecord;
}

/** What `GdlWorker.bestMove` asks for: the player, and the state (its fluents) and role to move for. */
export interface BestMoveRequest {
  /** Default `defaultPlayer()`, `"mcts-solver"` (the player of `gdlkit serve`). */
  spec?: PlayerSpec;
  seed?: number;
  /** The state machine: "auto" (default), "fast" or "interpreter". */
  engine?: EngineChoice;
  /** What a searching player solves at the start and plays where it settles the move: as `new Player`'s option (default "auto"). */
  solution?: 'auto' | false | string | Omit<SolveOptions, 'engine'>;
  fluents: readonly string[];
  /** Index or name; default 0. */
  role?: RoleRef;
  /** GDL-II: the game as `role` saw it from the start, its move and percepts per step (the player is told them before it moves). */
  seen?: readonly { move: string; percepts: readonly string[] }[];
}

/** A player's move, from `GdlWorker.bestMove`. */
export interface BestMoveResult {
  move: string;
  /** The player's name with its options. */
  player: string;
  stats: SearchStats;
  /** The move came from the player's solution (no search ran). */
  solved: boolean;
}

/** Events: `progress` (detail `{id, kind, progress}`), `restart` (detail `{reason, id?}`). */
export interface GdlWorkerEvent extends Event {
  detail: { id?: number; kind?: string; progress?: unknown; reason?: 'cancel' | 'restart' };
}

/**
 * The main-thread client of a gdlkit worker. The worker starts on first
 * use; jobs run in slices so progress is reported and a soft cancel takes
 * effect between slices.
 */
export class GdlWorker extends EventTarget {
  constructor(options?: GdlWorkerOptions);
  /** Resolves once the worker has loaded the wasm. */
  readonly ready: Promise<WorkerInfo>;
  /** How many tasks are in flight. */
  readonly pending: number;
  /** Starts a job by kind (the protocol's `start` message). */
  run<T = unknown, P = unknown>(kind: string, params?: Record<string, unknown>, options?: TaskOptions<P>): GdlTask<T>;
  /**
   * Cancels a task. Soft: the worker stops it at the next slice and it
   * rejects with a GdlAbortError; unanswered within `cancelGraceMs`, or with
   * `{hard: true}`, the worker is terminated and restarted (other tasks
   * start again on the new worker).
   */
  cancel(id: number, options?: { hard?: boolean }): void;
  /** Hard cancel of everything: terminates the worker, rejects every task; the next task starts a new worker. */
  restart(): void;
  /** Terminates the worker for good. */
  terminate(): void;
  [Symbol.dispose](): void;

  /** Diagnostics of a game text. */
  check(text: string, options?: TaskOptions): GdlTask<Diagnostic[]>;
  /** The canonical layout of a game text (rejects with a GdlDiagnosticsError on syntax errors). */
  format(text: string, options?: TaskOptions): GdlTask<string>;
  /** The conformance replay of joint moves. */
  replay(kif: string, moves: string | string[][] | { jointMoves: string[][] } | { joint_moves: string[][] }, options?: TaskOptions): GdlTask<ReplayResult>;
  /** The command line over an object (or Map) of files. */
  cli(args: string[], files?: Record<string, string> | Map<string, string>, options?: TaskOptions): GdlTask<CliResult>;
  /** Random playouts, in slices (progress `{done, total}`). */
  playouts(kif: string, playouts?: PlayoutsOptions, options?: TaskOptions<PlayoutsProgress>): GdlTask<PlayoutsResult>;
  /**
   * The semantic analysis in slices (progress: the job's progress). A soft
   * cancel keeps what was found: the AbortError's `partial` is an
   * AnalysisResult whose unsettled properties are null.
   */
  analyze(kif: string, options?: AnalysisOptions, taskOptions?: TaskOptions<AnalysisProgress>): GdlTask<AnalysisResult>;
  /**
   * The solver in slices (progress: the job's progress). A soft cancel
   * solves what was explored: the AbortError's `partial` is a partial summary.
   */
  solve(kif: string, options?: SolveOptions, taskOptions?: TaskOptions<SolveProgress>): GdlTask<SolveSummary>;

  /** A search from the initial state (one wasm call: no progress; cancelling it restarts the worker). */
  search(kif: string, options?: SearchOptions, taskOptions?: TaskOptions): GdlTask<SearchResult>;
  /** The values of a position's moves (as `explain`). */
  explain(kif: string, options?: ExplainOptions, taskOptions?: TaskOptions): GdlTask<Explanation>;
  /** A search of an abstract tree (with the trace when `options.trace`). */
  searchTree(tree: string, options?: SearchOptions, taskOptions?: TaskOptions): GdlTask<SearchResult>;
  /** A match between players (one per role); progress after each game. */
  match(kif: string, players: readonly PlayerSpec[], options?: RunMatchOptions, taskOptions?: TaskOptions<MatchProgress>): GdlTask<MatchResult>;
  /** A player's move in a state; the worker keeps the last few players between calls. */
  bestMove(kif: string, request: BestMoveRequest, taskOptions?: TaskOptions): GdlTask<BestMoveResult>;
  /** The structure of a game (one wasm call, bounded by `options.ms`). */
  structure(kif: string, options?: StructureOptions, taskOptions?: TaskOptions): GdlTask<Structure>;
  /** The SVG of a state's board (`""` when the game has none); `game`: KIF text or a structure. */
  renderBoard(game: string | Structure, state: readonly string[] | { fluents: readonly string[] }, options?: RenderBoardOptions, taskOptions?: TaskOptions): GdlTask<string>;

  addEventListener(type: 'progress' | 'restart', listener: (event: GdlWorkerEvent) => void, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions): void;
}
