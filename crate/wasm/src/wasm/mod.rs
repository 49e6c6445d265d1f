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
//! | `solve.rs` | the `SolveJob` class: the game solver as a resumable job |
//! | `ggp.rs` | the GGP protocol for JS sockets: `GgpServer` (player), `GgpPlayer` (player without HTTP), `GgpMatch` (one managed match), `GgpHost` (`gdlkit host`) |
//! | `structure.rs` | `structure(kif, options)`: boards, pieces, roles, ... (`crate::structure`); `renderBoard`: a state's board as SVG |
//! | `ground.rs` | `groundReport(kif, options)`: what instantiation did (`crate::ground::report`) |
//! | `ensemble.rs` | the ensemble across workers: `EnsembleMember` (one member's search), `ensembleMembers`, `ensembleChoose` (the rule) |
//! | `js.rs` | shared helpers: JS errors, serde conversions, the panic hook |
//!
//! (Validation, search and analysis bindings get their own files:
//! `check.rs`, `search.rs`, `analysis.rs`.)
//!
//! Without the `engine` feature only `check.rs` (and `version`) is
//! compiled: the page's check wasm, which the editor's diagnostics use while
//! the engine's wasm loads (`scripts/build.mjs`).
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

#[cfg(feature = "engine")]
mod alphabeta_parallel;
#[cfg(feature = "engine")]
mod analysis;
mod check;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "engine")]
mod ensemble;
#[cfg(feature = "engine")]
mod explain;
#[cfg(feature = "engine")]
mod game;
#[cfg(feature = "engine")]
mod ggp;
#[cfg(feature = "engine")]
mod ground;
mod js;
#[cfg(feature = "cli")]
mod library;
#[cfg(feature = "engine")]
mod matches;
#[cfg(feature = "engine")]
mod parallel;
#[cfg(feature = "engine")]
mod playouts;
#[cfg(feature = "engine")]
mod replay;
mod repository;
#[cfg(feature = "engine")]
mod search;
#[cfg(feature = "engine")]
mod solve;
#[cfg(feature = "engine")]
mod standalone;
#[cfg(feature = "engine")]
mod structure;
#[cfg(feature = "engine")]
mod threads;
// Memory budget and the page test's trap.
#[cfg(feature = "engine")]
mod limits;
#[cfg(feature = "engine")]
pub use limits::{memory_budget, set_memory_budget, test_trap};

#[cfg(feature = "engine")]
pub use alphabeta_parallel::{alphabeta_choose, AlphaBetaWorker};
#[cfg(feature = "engine")]
pub use analysis::AnalysisJob;
pub use check::{check, fix, format_kif};
#[cfg(feature = "cli")]
pub use cli::run_cli;
#[cfg(feature = "engine")]
pub use ensemble::{ensemble_choose, ensemble_members, EnsembleMember};
#[cfg(feature = "engine")]
pub use explain::explain;
#[cfg(feature = "engine")]
pub use game::Game;
#[cfg(feature = "cli")]
pub use ggp::{GgpHost, GgpServer};
#[cfg(feature = "engine")]
pub use ggp::{GgpMatch, GgpPlayer};
#[cfg(feature = "engine")]
pub use ground::ground_report;
#[cfg(feature = "engine")]
pub use matches::run_match_with_progress;
#[cfg(feature = "engine")]
pub use parallel::{mcts_choose, MctsWorker};
#[cfg(feature = "engine")]
pub use playouts::PlayoutJob;
#[cfg(feature = "engine")]
pub use replay::replay;
#[cfg(feature = "engine")]
pub use search::{
    parse_player_spec, parse_tree, players, random_tree, reorder_tree, run_match, search,
    search_tree, SearchPlayer,
};
#[cfg(feature = "engine")]
pub use solve::SolveJob;
#[cfg(feature = "engine")]
pub use standalone::standalone_html;
#[cfg(feature = "engine")]
pub use structure::{move_cells, render_board, structure};

use wasm_bindgen::prelude::*;

/// The gdlkit version (the crate version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

// The option and result types, generated from the Rust types
// (`crate::typescript`, checked in as js/types.d.ts), and the few types that
// are not data.
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = include_str!("../../../../js/types.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const TS_EXTRA: &'static str = r#"
/** Where the CLI reads files: an object or Map of path to contents, or a function returning the contents (or undefined). */
export type CliFiles = Record<string, string> | Map<string, string> | ((path: string) => string | undefined | null);

/** The error thrown when game text has errors. */
export interface GdlDiagnosticsError extends Error {
  name: "GdlDiagnosticsError";
  diagnostics: Diagnostic[];
}
"#;
