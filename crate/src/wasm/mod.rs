//! WebAssembly bindings (wasm-bindgen), compiled only for `wasm32`.
//!
//! Thin adapters over the library: no game logic here. One file per area:
//!
//! | file | exports |
//! |---|---|
//! | `game.rs` | the `Game` class: the state machine with state handles |
//! | `replay.rs` | `replay(kif, moves)`: the conformance format |
//! | `cli.rs` | `runCli(args, files)`: the command-line tool over a JS file map |
//! | `search.rs` | `search`, `searchTree` (with the lecture trace), `runMatch`, the `SearchPlayer` class |
//! | `matches.rs` | `runMatchWithProgress`: `runMatch` calling back after each game (for the worker) |
//! | `check.rs` | `check(text)`: resolved diagnostics; `format(text)`: the canonical layout |
//! | `analysis.rs` | the `AnalysisJob` class: the semantic validator as a resumable job |
//! | `ggp.rs` | the GGP protocol for JS sockets: `GgpServer` (player), `GgpPlayer` (player without HTTP), `GgpMatch` (one managed match), `GgpHost` (`gdlkit host`) |
//! | `structure.rs` | `structure(kif, options)`: boards, pieces, roles, ... (`crate::structure`); `renderBoard`: a state's board as SVG |
//! | `ensemble.rs` | the ensemble across workers: `EnsembleMember` (one member's search), `ensembleMembers`, `ensembleChoose` (the rule) |
//! | `js.rs` | shared helpers: JS errors, serde conversions, the panic hook |
//!
//! (Validation, search and analysis bindings get their own files:
//! `check.rs`, `search.rs`, `analysis.rs`.)
//!
//! ## Errors
//! Every failure is a thrown JS `Error` (never a trap) whose `name` says what
//! went wrong:
//! - `GdlDiagnosticsError`: the game text has errors; `err.diagnostics` is an
//!   array of [`crate::diagnostic::ResolvedDiagnostic`] (line/column 1-based,
//!   `from`/`to` in UTF-16 code units for editors).
//! - `GdlMoveError`: a move that is not legal (or not a term).
//! - `GdlEvalError`: a resource limit of the reasoner was exceeded.
//! - `RangeError`: an unknown state handle or role index.
//! - `TypeError`: an argument of the wrong shape.

mod alphabeta_parallel;
mod analysis;
mod check;
#[cfg(feature = "cli")]
mod cli;
mod ensemble;
mod explain;
mod game;
mod ggp;
mod js;
mod matches;
mod parallel;
mod playouts;
mod replay;
mod search;
mod standalone;
mod structure;
// Memory budget and the page test's trap (issue 13).
mod limits;
pub use limits::{memory_budget, set_memory_budget, test_trap};

pub use alphabeta_parallel::{alphabeta_choose, AlphaBetaWorker};
pub use analysis::AnalysisJob;
pub use check::{check, fix, format_kif};
#[cfg(feature = "cli")]
pub use cli::run_cli;
pub use ensemble::{ensemble_choose, ensemble_members, EnsembleMember};
pub use explain::explain;
pub use game::Game;
#[cfg(feature = "cli")]
pub use ggp::{GgpHost, GgpServer};
pub use ggp::{GgpMatch, GgpPlayer};
pub use matches::run_match_with_progress;
pub use parallel::{mcts_choose, MctsWorker};
pub use playouts::PlayoutJob;
pub use replay::replay;
pub use search::{
    parse_player_spec, parse_tree, players, random_tree, reorder_tree, run_match, search,
    search_tree, SearchPlayer,
};
pub use standalone::standalone_html;
pub use structure::{move_cells, render_board, structure};

use wasm_bindgen::prelude::*;

/// The gdlkit version (the crate version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** A diagnostic with resolved positions (lines and columns 1-based; `from`/`to` UTF-16 offsets). */
export interface Diagnostic {
  code: string;
  severity: "error" | "warning" | "info";
  message: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  from: number;
  to: number;
  hint: string;
  related: { message: string; line: number; column: number; end_line: number; end_column: number; from: number; to: number }[];
  /** Quick fixes: replace UTF-16 offsets [from, to) by `insert` (docs/diagnostics.md). */
  fixes: { title: string; edits: { from: number; to: number; insert: string }[]; safe: boolean }[];
}

/** What `fix(text)` did. */
export interface FixResult {
  text: string;
  applied: { code: string; title: string; line: number; column: number }[];
}

/** Which engine runs a Game, and why. */
export interface EngineInfo {
  name: "fast" | "interpreter";
  requested: "auto" | "fast" | "interpreter";
  reason: string;
}

/** Random playouts: playout i is `gdlkit play --seed seed+i`. */
export interface PlayoutSummary {
  roles: string[];
  playouts: number;
  terminal: number;
  meanSteps: number;
  meanGoals: (number | null)[];
  games?: { jointMoves: string[][]; terminal: boolean; stuck: boolean; goals: number[][] }[];
}

/** The outcome of a terminal state. */
export interface Outcome {
  score: number;
  winners: number[];
  draw: boolean;
  results: ("win" | "draw" | "loss")[];
}

/** An abstract tree: a number for a leaf, an array for a node. */
export type Tree = number | Tree[];

/** A child's original number, and its children's. */
export interface TreeLabel {
  label: number;
  sub: TreeLabel[] | null;
}

export interface ReorderedTree {
  tree: Tree;
  text: string;
  labels: TreeLabel[];
}

export interface ParsedPlayerSpec {
  name: string;
  options: Record<string, string>;
}

/** The error thrown when game text has errors. */
export interface GdlDiagnosticsError extends Error {
  name: "GdlDiagnosticsError";
  diagnostics: Diagnostic[];
}

/** A description of one state. Lists are sorted by code point; `legal` and `goals` are per role, in role order. */
export interface StateDescription {
  fluents: string[];
  terminal: boolean;
  legal: string[][];
  goals: number[][];
  /** Terminal states with goal values: who won. */
  outcome: Outcome | null;
}

/** One step of a replay (conformance format); `legal` and `goals` are keyed by role. */
export interface ReplayStep {
  state: string[];
  terminal: boolean;
  legal: Record<string, string[]>;
  goals: Record<string, number[]>;
}

export interface ReplayResult {
  roles: string[];
  steps: ReplayStep[];
}

/** The result of one CLI run. `written` holds the files the command wrote. */
export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
  written: Record<string, string>;
}

/** A board found in the rules (`gdlkit structure`): coordinates and contents are argument positions (0-based). */
export interface StructureBoard {
  fluent: string;
  arity: number;
  coordinates: number[];
  contents: number[];
  size: number[];
  ordered: boolean[];
  order: (string | null)[];
  values: string[][];
  pieces: string[];
  markers: string[];
}

/** The structure of a game (lecture 004), as `gdlkit structure --format json`. */
export interface Structure {
  roles: string[];
  turn_taking: boolean;
  noop_moves: string[];
  teams: string[][];
  constant_sum: number | null;
  goal_values: Record<string, number[]>;
  successors: { relation: string; chain: string[] }[];
  orders: { relation: string; successor: string; ascending: boolean; reflexive: boolean }[];
  boards: StructureBoard[];
  counters: { fluent: string; argument: number; successor: string; limit: string | null }[];
  quantities: { fluent: string; argument: number; inputs: number[]; successor: string; values: string[] }[];
  domains: { fluent: string; arity: number; sizes: (number | null)[] }[];
  features: string[];
  states_sampled: number;
  terminal_states_sampled: number;
}

/** Where the CLI reads files: an object or Map of path to contents, or a function returning the contents (or undefined). */
export type CliFiles = Record<string, string> | Map<string, string> | ((path: string) => string | undefined | null);

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
"#;
