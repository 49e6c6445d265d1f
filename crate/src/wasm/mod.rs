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

mod analysis;
mod check;
mod cli;
mod game;
mod ggp;
mod js;
mod matches;
mod parallel;
mod replay;
mod search;

pub use analysis::AnalysisJob;
pub use check::{check, format_kif};
pub use cli::run_cli;
pub use game::Game;
pub use ggp::{GgpHost, GgpMatch, GgpPlayer, GgpServer};
pub use matches::run_match_with_progress;
pub use parallel::{mcts_choose, MctsWorker};
pub use replay::replay;
pub use search::{run_match, search, search_tree, SearchPlayer};

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

/** Where the CLI reads files: an object or Map of path to contents, or a function returning the contents (or undefined). */
export type CliFiles = Record<string, string> | Map<string, string> | ((path: string) => string | undefined | null);
"#;
